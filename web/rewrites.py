"""The rewrite a diagnosis page shows, as the user's own kernel changed: the offline rules
proposer (`diagnose.proposers.rules`, the optimize loop's) applied to the diagnosed kernel for
the concluded family (or the best-ranked one when inconclusive)."""

from __future__ import annotations

from pathlib import Path

from diagnose.report import Diagnosis
from web.config import WebConfig


def family_of(d: Diagnosis) -> str | None:
    if d.conclusion is not None:
        return d.conclusion.rewrite_family
    return d.ranking[0]["rewrite_family"] if d.ranking else None


def rewrite_for(d: Diagnosis, name: str, config: WebConfig) -> tuple[str, str] | None:
    """(where it came from, the rewritten source) or None when no rule applies."""
    try:
        from diagnose.proposers import Request
        from diagnose.proposers.rules import propose
    except ImportError:  # the optimize loop's proposers are not installed
        return None
    try:
        source = Path(d.kernel_path).read_text(encoding="utf-8")
    except OSError:
        return None
    family = family_of(d)
    if not family:
        return None
    proposal = propose(Request(task_name=d.target, task_source="", kernel_source=source,
                               diagnosis=d.to_dict(), passages=[], family=family))
    if not proposal.candidates:
        return None
    first = proposal.candidates[0]
    return (f"rules proposer, {proposal.transformation}: {first.description}", first.source)
