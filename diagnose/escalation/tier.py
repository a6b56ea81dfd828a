"""Tier 4 as the ladder sees it: each IR symptom asked of the compiler source through
diagnose.escalation.escalate, the answers merged into one TierResult plus the escalation records."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from diagnose.evidence import TierResult
from diagnose.ir.tier import SYMPTOM_WEIGHT
from diagnose.report import Citation, Escalation
from kb.errors import KBError

TIER, TIER_NAME = 4, "compiler-source escalation"


def escalate_symptoms(open_kb: Callable[[], tuple[Any, Any]], asks: list[tuple[str, str, str]],
                      backend: str, compiler_version: str | None,
                      kernels: dict[str, Any] | None = None
                      ) -> tuple[TierResult, list[Escalation]]:
    """Ask each (symptom, pass, kernel) of the knowledge base; a refusal is a reason, not a
    crash. `kernels` maps kernel names to their captured KernelIR, whose facts (warps, dot
    shape, mask bounds...) let tier 4 tell which clause of a deciding branch the kernel fails."""
    try:
        from diagnose.escalation import escalate
    except ImportError:
        return _skipped("Tier 4 (diagnose.escalation.escalate) is not installed in this checkout."), []
    try:
        kb, registry = open_kb()
    except KBError as exc:
        return _skipped(str(exc)), []
    answers, refusals = [], []
    for symptom, pass_arg, kernel in asks:
        kir = (kernels or {}).get(kernel) or next(iter((kernels or {}).values()), None)
        if pass_arg and registry.lookup(pass_arg) is None:
            pass_arg = ""  # a stage that is no registered pass (the frontend): the symptom's row picks
        try:
            answers.append(escalate.escalate(
                kb, registry, symptom=symptom, pass_name=pass_arg or None, backend=backend,
                kernel_compiler_version=compiler_version,
                kernel_facts=_facts(escalate, kir)))
        except KBError as exc:  # empty index, unknown pass: tier 4's one-sentence reasons
            refusals.append(str(exc))
    if not answers:
        return _skipped(" ".join(dict.fromkeys(refusals))), []
    results = [(a.symptom, escalate.escalation_to_tier_result(a)) for a in answers]
    for symptom, result in results:
        for f in result.findings:
            f.evidence["symptom_asked"] = symptom  # what cost the answer has to explain
    merged = _merged(results, refusals)
    return merged, [_record(a) for a in answers]


def _facts(escalate: Any, kir: Any) -> Any:
    """The kernel's facts for tier 4, or None when there is no capture (or it cannot be read)."""
    if kir is None or getattr(kir, "failure", None) is not None:
        return None
    try:
        return escalate.kernel_facts(kir)
    except (ValueError, KeyError, AttributeError, IndexError):
        return None


def _skipped(why: str) -> TierResult:
    return TierResult(TIER, TIER_NAME, skipped=True, skip_reason=why)


def _record(esc: Any) -> Escalation:
    passages = [Citation(path=p.path, start_line=p.start_line, end_line=p.end_line,
                         permalink=p.permalink, repo=p.repo, symbol=p.symbol)
                for p in esc.passages]
    family = esc.rewrite.family
    return Escalation(symptom=esc.symptom, pass_arg=esc.pass_arg, question=esc.question,
                      filters=list(esc.searches), passages=passages, verdict=esc.verdict,
                      rewrite_family=family,
                      conclusion=esc.reason + (f" Rewrite family: {family}." if family else ""))


def _merged(answers: list[tuple[str, TierResult]], refusals: list[str]) -> TierResult:
    """One TierResult for all questions: enough when the answered ones agree on a family, or
    when the costliest answered symptom's answer names one family on its own.

    Symptom cost is tier 3's SYMPTOM_WEIGHT (losing the tensor-core path, the pipeliner or
    registers to spills changes the hot loop's instruction mix; narrow or discrete accesses
    multiply memory instructions; one surviving layout conversion or wide index math adds a
    round trip or a few instructions per tile)."""
    answered = [(sym, r) for sym, r in answers if r.sufficient]
    families = {f.rewrite_family for _, r in answered for f in r.findings}
    reason = " ".join(dict.fromkeys([r.reason for _, r in answers] + refusals))
    sufficient = len(families) == 1
    if len(families) > 1:
        top = max(SYMPTOM_WEIGHT.get(sym, 0) for sym, _ in answered)
        lead = [(sym, r) for sym, r in answered if SYMPTOM_WEIGHT.get(sym, 0) == top]
        lead_families = {f.rewrite_family for _, r in lead for f in r.findings}
        if len(lead_families) == 1 and top > 0:
            sufficient = True
            leader = lead[0][0]
            reason = (f"The answers differ; {leader} costs the kernel most, so its answer comes "
                      f"first. {reason}")
            # The leading answer's findings first; the others stay as evidence at half their
            # confidence, so they cannot confirm a tier-1 hypothesis over the leading answer.
            for sym, r in answers:
                if (sym, r) not in lead:
                    for f in r.findings:
                        f.confidence = round(f.confidence / 2, 3)
            answers = lead + [(sym, r) for sym, r in answers if (sym, r) not in lead]
    results = [r for _, r in answers]
    return TierResult(TIER, TIER_NAME, [f for r in results for f in r.findings],
                      sufficient=sufficient, reason=reason,
                      elapsed_s=round(sum(r.elapsed_s for r in results), 4))
