"""MCP tools of the diagnosis ladder: diagnose a kernel, escalate a symptom to the source."""

from __future__ import annotations

from typing import Any

import anyio
from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations

from diagnose.saved import SavedDiagnosisError
from web.house import BadRequest, House
from web.jobs import JobError, JobQueue, run_job
from web.mcp.models import DiagnosisResult


def register(server: FastMCP, house: House, jobs: JobQueue) -> None:
    @server.tool(annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False,
                                             idempotentHint=False, openWorldHint=False))
    async def diagnose_kernel(source: str, task: str = "", backend: str = "cuda",
                              max_tier: int = 3) -> DiagnosisResult:
        """Climb passwise's diagnosis ladder for a Triton kernel (the .py file's text): pattern
        triage, IR attribution compiled on this CPU, and escalation to the compiler source.
        `task` names a task under kernels/ that launches it (else the file must launch
        itself). Returns the verdict, the rewrite family and the documented diagnosis JSON;
        the diagnosis is also kept under PASSWISE_HOME/diagnoses."""
        try:
            job = jobs.reserve(source, task, backend, max_tier)
        except JobError as exc:
            raise BadRequest(str(exc)) from None
        await anyio.to_thread.run_sync(run_job, job, jobs.kernel_path(job), house.config)
        return _result(house, job)

    @server.tool(annotations=ToolAnnotations(readOnlyHint=True, destructiveHint=False,
                                             idempotentHint=True, openWorldHint=False))
    async def escalate_symptom(symptom: str, pass_name: str | None = None,
                               backend: str = "cuda", k: int = 5) -> dict[str, Any]:
        """Tier 4 as a service: from an IR symptom (an id such as scalar-global-loads, or a
        sentence describing what the IR shows) and optionally the pass it is attributed to, the
        compiler passages that decide it, the deciding condition and the rewrite family that
        satisfies it (the JSON of `passwise escalate --json`)."""
        from diagnose.escalation import escalate as tier4

        if backend not in ("cuda", "ascend"):
            raise BadRequest("backend must be cuda or ascend.")
        if not 1 <= k <= 20:
            raise BadRequest("k must be from 1 to 20.")

        def answer() -> dict[str, Any]:
            with house.query_lock:
                return tier4.escalate(house.kb, house.registry(), symptom=symptom,
                                      pass_name=pass_name or None, backend=backend,
                                      k=k).to_json()
        return await anyio.to_thread.run_sync(answer)


def _result(house: House, job) -> DiagnosisResult:
    data, verdict, reason, family = None, "", "", ""
    if job.diagnosis:
        try:
            d, _ = house.diagnosis(job.diagnosis)
            data, verdict, reason = d.to_dict(), d.verdict, d.reason
            family = d.conclusion.rewrite_family if d.conclusion else ""
        except SavedDiagnosisError:
            pass
    return DiagnosisResult(state=job.state, name=job.diagnosis, verdict=verdict, reason=reason,
                           rewrite_family=family, error=job.error, progress=job.progress,
                           diagnosis=data)
