"""The LLM proposer: an OpenAI-compatible chat model writes one whole kernel file from the kernel,
the task, the ladder's evidence and the cited compiler passages. Replies that are cut off, carry
no parsable file or lack `run` are retried with the reason; every attempt and its tokens are
recorded. The reply is untrusted: it only ever runs inside the runner's sandboxed child."""

from __future__ import annotations

import ast
import json
import re
import time
from dataclasses import dataclass

from diagnose.escalation.llm import LLMConfig
from diagnose.proposers import Candidate, Proposal, Request, evidence_of, hypothesis_of

SYSTEM_PROMPT = (
    "You rewrite Triton kernels to make them faster without changing their results. You are "
    "given a task (its torch reference and input sizes), the current kernel, a diagnosis with "
    "evidence from the compiler, and the compiler source passages it cites. Make the ONE change "
    "the diagnosis names. Reply with the complete new kernel file in a single ```python block: "
    "the same `run(*inputs)` entry point, Triton kernels only (torch may only allocate and "
    "describe tensors), nothing else. After the block, one sentence on what you changed.")
FENCE = re.compile(r"```(?:python|py)?\s*\n(.*?)```", re.S)


@dataclass
class LLMSettings(LLMConfig):
    """The escalation's endpoint (never stored with the key), with a whole file's budget and how
    hard to try."""

    timeout_s: float = 120.0
    max_tokens: int = 4096
    attempts: int = 3
    temperature: float = 0.2


def build_prompt(req: Request) -> str:
    d = req.diagnosis
    conclusion = d.get("conclusion") or {}
    lines = [f"# Task {req.task_name} (task.py)", "```python", req.task_source.strip(), "```",
             "# Current kernel", "```python", req.kernel_source.strip(), "```",
             "# Diagnosis", f"verdict: {d.get('verdict')}; {d.get('reason', '')}",
             f"rewrite family: {req.family}", f"hotspot: {json.dumps(conclusion.get('hotspot'))}",
             f"why: {conclusion.get('explanation', '')}"]
    lines += [f"- tier {e['tier']} {e['kind']} {e['card_id']}: {e['message']}" for e in evidence_of(d)]
    lines += [f"- {t}" for t in d.get("tried", [])]
    if req.passages:
        lines.append("# Compiler passages the diagnosis cites")
        lines += [f"- {p.get('repo', '')} {p['path']}:{p['start_line']}-{p['end_line']} {p.get('symbol', '')}"
                  for p in req.passages]
    if req.tried:
        lines.append(f"# Already tried on this kernel without a win: {', '.join(req.tried)}")
    return "\n".join(lines)


def extract_kernel(text: str) -> tuple[str | None, str]:
    """(the kernel file, '') or (None, why the reply is not one)."""
    blocks = FENCE.findall(text or "")
    code = max(blocks, key=len) if blocks else (text or "")
    if not code.strip():
        return None, "the reply holds no code"
    try:
        tree = ast.parse(code)
    except SyntaxError as exc:
        if not blocks:
            return None, "the reply holds no ```python block with a kernel file"
        return None, f"the code does not parse (line {exc.lineno}: {exc.msg})"
    names = {n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.ClassDef)}
    if not names & {"run", "ModelNew"}:
        return None, "the file defines no run(*inputs)"
    if "triton" not in code:
        return None, "the file launches no Triton kernel"
    return code if code.endswith("\n") else code + "\n", ""


def propose(req: Request, cfg: LLMSettings) -> Proposal:
    """Ask until a reply is a whole kernel file or the attempts run out; all attempts recorded."""
    from openai import OpenAI

    proposal = Proposal("llm", req.family, card_id=(req.diagnosis.get("conclusion") or {}).get("card_id", ""),
                        hypothesis=hypothesis_of(req.diagnosis), evidence=evidence_of(req.diagnosis))
    client = OpenAI(base_url=cfg.base_url, api_key=cfg.api_key, timeout=cfg.timeout_s, max_retries=0)
    messages = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": build_prompt(req)}]
    for attempt in range(1, cfg.attempts + 1):
        record, code, text = _ask(client, cfg, messages, attempt)
        proposal.attempts.append(record)
        for k in ("prompt", "completion"):
            proposal.tokens[k] += record[f"{k}_tokens"]
        proposal.tokens["total"] = proposal.tokens["prompt"] + proposal.tokens["completion"]
        if code is not None:
            summary = FENCE.sub("", text).strip().splitlines()
            proposal.candidates = [Candidate(code, (summary[0] if summary else "model rewrite")[:200],
                                             {"model": cfg.model, "attempt": attempt})]
            return proposal
        if record["outcome"] == "error":
            break
        messages += [{"role": "assistant", "content": text or ""},
                     {"role": "user", "content": f"That reply cannot be used: {record['detail']}. "
                                                 "Send the complete kernel file in one ```python block."}]
    proposal.reason = f"no usable kernel after {len(proposal.attempts)} attempt(s): {proposal.attempts[-1]['detail']}"
    return proposal


def _ask(client, cfg: LLMSettings, messages: list[dict], attempt: int) -> tuple[dict, str | None, str]:
    start = time.monotonic()
    record = {"attempt": attempt, "outcome": "ok", "detail": "", "finish_reason": None,
              "prompt_tokens": 0, "completion_tokens": 0, "seconds": 0.0}
    try:
        reply = client.chat.completions.create(model=cfg.model, messages=messages,
                                               max_tokens=cfg.max_tokens, temperature=cfg.temperature)
    except Exception as exc:  # noqa: BLE001 - any client failure is recorded, never raised
        record.update(outcome="error", detail=f"{type(exc).__name__}: {str(exc)[:300]}",
                      seconds=round(time.monotonic() - start, 3))
        return record, None, ""
    usage = getattr(reply, "usage", None)
    choice = reply.choices[0] if reply.choices else None
    text = (choice.message.content if choice and choice.message else "") or ""
    record.update(finish_reason=getattr(choice, "finish_reason", None),
                  prompt_tokens=getattr(usage, "prompt_tokens", 0) or 0,
                  completion_tokens=getattr(usage, "completion_tokens", 0) or 0,
                  seconds=round(time.monotonic() - start, 3))
    if record["finish_reason"] == "length":
        record.update(outcome="truncated", detail="the reply was cut off at the token limit")
        return record, None, text
    code, why = extract_kernel(text)
    if code is None:
        record.update(outcome="malformed", detail=why)
    return record, code, text
