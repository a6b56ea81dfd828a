"""Tier 3 as the ladder sees it: an IRCapture and its symptoms turned into one TierResult.

Each symptom names the pass responsible; the table below says which pattern cards (tier-1
hypotheses) a symptom can confirm, which is how the ladder combines evidence across tiers.
"""

from __future__ import annotations

from diagnose.evidence import Finding, TierResult
from diagnose.ir import IRCapture, Symptom

TIER, TIER_NAME = 3, "IR attribution"
SYMPTOM_CONFIDENCE = 0.9  # an IR symptom is an observed fact; what it is caused by is not

# Symptom id -> the pattern cards whose slow idiom produces it, most direct cause first.
# One card: the symptom alone names the rewrite family. Several: a tier-1 hypothesis (or
# tier 4) has to say which of them is at work in this kernel.
SYMPTOM_CARDS: dict[str, tuple[str, ...]] = {
    "scalar-global-loads": ("cuda-runtime-stride-no-hints", "cuda-strided-fast-axis",
                            "cuda-scalar-element-loop", "cuda-div-mod-index",
                            "cuda-int64-index"),
    "convert-layout-survives": ("cuda-layout-conversion-churn", "cuda-reduce-strided-axis",
                                "cuda-smem-bank-conflicts"),
    "dot-without-wgmma": ("cuda-fp32-dot", "cuda-num-warps-exceed-tile"),
    "no-async-copy-after-pipeline": ("cuda-kloop-unpipelined", "cuda-mask-in-kloop",
                                     "cuda-smem-limits-occupancy"),
    "register-spills": ("cuda-register-spills",),
    "int64-index-arith": ("cuda-int64-index",),
    "discrete-mask-to-select": ("ascend-strided-fast-axis", "ascend-discrete-gather"),
    "unstructured-access-fallback": ("ascend-scalar-element-loop", "ascend-discrete-gather",
                                     "ascend-div-mod-unstructured", "ascend-strided-fast-axis"),
}


def tier3_result(capture: IRCapture, symptoms: list[Symptom],
                 card_families: dict[str, str], elapsed_s: float = 0.0) -> TierResult:
    """Findings for `symptoms` of `capture`; `card_families` maps card id -> rewrite family."""
    findings = [_finding(s, capture, card_families) for s in symptoms]
    return TierResult(TIER, TIER_NAME, findings, sufficient=False,
                      reason=_reason(capture, findings), elapsed_s=round(elapsed_s, 4))


def _finding(symptom: Symptom, capture: IRCapture, card_families: dict[str, str]) -> Finding:
    if symptom.id == "compile-failure":
        return _failure_finding(symptom, capture)
    kernel = next((k for k in capture.kernels if k.kernel == symptom.kernel), None)
    cards = [c for c in SYMPTOM_CARDS.get(symptom.id, ()) if c in card_families]
    families = list(dict.fromkeys(card_families[c] for c in cards))
    only = families[0] if len(families) == 1 else ""
    return Finding(
        tier=TIER, kind="ir-symptom", card_id=cards[0] if only else "", rewrite_family=only,
        message=f"{symptom.summary} (pass {symptom.pass_arg})", confidence=SYMPTOM_CONFIDENCE,
        location={"path": kernel.file if kernel else capture.source, "function": symptom.kernel,
                  "line": kernel.line if kernel else None, "stage": symptom.stage_index},
        evidence={"symptom": symptom.id, "summary": symptom.summary, "ir": symptom.evidence,
                  "survived": symptom.survived, "explains_cards": cards,
                  "explains_families": families, "target": capture.target,
                  "compiler": capture.compiler_version,
                  "reproduce": capture.commands[:1]},
        evidence_needed=[] if only else [
            f"which of {', '.join(families) or 'the known idioms'} causes it in this kernel: "
            "a tier-1 hypothesis or the pass's source (tier 4)"],
        passes=[symptom.pass_arg] if symptom.pass_arg else [])


def _failure_finding(symptom: Symptom, capture: IRCapture) -> Finding:
    """A kernel that does not compile: the compiler's own message is the evidence."""
    last = next((ln for ln in reversed(symptom.evidence) if ln.strip()), "no message")
    return Finding(
        tier=TIER, kind="compile-failure", card_id="", rewrite_family="",
        message=f"{symptom.kernel} does not compile ({symptom.pass_arg}): {last.strip()}",
        confidence=1.0, location={"path": capture.source, "function": symptom.kernel,
                                  "line": None, "stage": None},
        evidence={"phase": symptom.pass_arg, "message": symptom.evidence,
                  "compiler": capture.compiler_version, "reproduce": capture.commands[:1]},
        passes=[])


def _reason(capture: IRCapture, findings: list[Finding]) -> str:
    if any(f.kind == "compile-failure" for f in findings):
        return f"The kernel does not compile for {capture.target}; the failure is the evidence."
    if not findings:
        launched = len(capture.kernels)
        return (f"{launched} kernel launch(es) compiled for {capture.target} show none of the "
                "known IR symptoms.")
    symptoms = ", ".join(f"{f.evidence['symptom']} at {f.passes[0] if f.passes else '?'}"
                         for f in findings)
    return (f"The IR locates the stage ({symptoms}); why the source causes it needs a tier-1 "
            "hypothesis that it confirms, or the pass's source.")
