"""Tier 4 as the ladder sees it: each IR symptom asked of the compiler source through
diagnose.escalate, the answers merged into one TierResult plus the escalation records."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from diagnose.evidence import TierResult
from diagnose.report import Citation, Escalation
from kb.errors import KBError

TIER, TIER_NAME = 4, "compiler-source escalation"


def escalate_symptoms(open_kb: Callable[[], tuple[Any, Any]], asks: list[tuple[str, str]],
                      backend: str, compiler_version: str | None
                      ) -> tuple[TierResult, list[Escalation]]:
    """Ask each (symptom, pass) of the knowledge base; a refusal is a reason, not a crash."""
    try:
        from diagnose import escalate
    except ImportError:
        return _skipped("Tier 4 (diagnose.escalate) is not installed in this checkout."), []
    try:
        kb, registry = open_kb()
    except KBError as exc:
        return _skipped(str(exc)), []
    answers, refusals = [], []
    for symptom, pass_arg in asks:
        try:
            answers.append(escalate.escalate(
                kb, registry, symptom=symptom, pass_name=pass_arg or None, backend=backend,
                kernel_compiler_version=compiler_version))
        except KBError as exc:  # empty index, unknown pass: tier 4's one-sentence reasons
            refusals.append(str(exc))
    if not answers:
        return _skipped(" ".join(dict.fromkeys(refusals))), []
    merged = _merged([escalate.escalation_to_tier_result(a) for a in answers], refusals)
    return merged, [_record(a) for a in answers]


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


def _merged(results: list[TierResult], refusals: list[str]) -> TierResult:
    """One TierResult for all questions: enough only when the answered ones agree on a family."""
    families = {f.rewrite_family for r in results if r.sufficient for f in r.findings}
    reason = " ".join(dict.fromkeys([r.reason for r in results] + refusals))
    return TierResult(TIER, TIER_NAME, [f for r in results for f in r.findings],
                      sufficient=len(families) == 1, reason=reason,
                      elapsed_s=round(sum(r.elapsed_s for r in results), 4))
