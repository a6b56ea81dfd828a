"""How the ladder weighs its evidence into one ranked list of rewrite families.

Every finding carries `confidence`: how sure its tier is that the finding's rewrite family is
the cause. Findings of different tiers are independent looks at the kernel (the source, the
timings, the IR, the compiler's source), so agreement between tiers reinforces: a family's
score is the noisy-OR of its best confidence in each tier, 1 - prod(1 - c_tier). Repeats within
one tier (the same card matched on two kernels, two sizes of one bench) do not add up; tier 1's
CPU trace (findings of kind "trace", key "1-trace") is a look of its own beside tier 1's reading. An IR
symptom counts in proportion to its cost weight: a cheap one is a certain fact about little time.
An IR symptom with several possible causes (`explains_families`) lends each of them an equal
share of that support: the fact is observed even when the cause is not yet known.

Two kinds of support count for less than their confidence says:
- a *fallback* (a tier's default when it cannot tell the cause: "no @triton.autotune", "below
  the roofline for a reason the counters do not show", a tier-4 answer whose passages decide
  nothing and so repeat the symptom table's default) holds for almost any kernel, so it says
  nothing about this one: a family only fallbacks support ranks after every family some
  specific finding supports, and adds nothing to the score of a family specific findings
  support;
- a hypothesis the IR could show but does not (`evidence["not_in_ir"]`, set by the ladder when
  tier 3 captured the kernel and none of the symptoms the idiom always leaves is there) counts
  at REFUTED_SHARE of its confidence.

The ranking is what an inconclusive diagnosis offers as its best guesses, and what a reader
(or an agent) should try first; a concluded diagnosis names its family through the POLICY
rules in diagnose.ladder, and the ranking stays beside it as the evidence's own order.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from diagnose.evidence import Finding, TierResult


@dataclass
class Candidate:
    """One rewrite family, its combined score, and the tiers that support it."""

    rewrite_family: str
    score: float
    card_id: str = ""
    by_tier: dict[str, float] = field(default_factory=dict)  # tier number -> best confidence


HEAVY_WEIGHT = 3  # an IR symptom of this cost weight (diagnose.ir.tier) counts in full
REFUTED_SHARE = 0.5  # a hypothesis whose IR symptom the capture does not show


def is_fallback(finding: Finding) -> bool:
    """A tier's default guess, not evidence about this kernel (tier 1 puts the flag in its facts)."""
    facts = finding.evidence.get("facts")
    return bool(finding.evidence.get("fallback") or (isinstance(facts, dict) and facts.get("fallback")))


def _cost_share(finding: Finding) -> float:
    """How much an observed symptom says about the time: an IR fact is certain, but a cheap
    one (a few int64 ops, one layout conversion) explains little of a slow kernel."""
    weight = finding.evidence.get("weight")
    if finding.tier != 3 or not isinstance(weight, int | float):
        return 1.0
    return min(1.0, weight / HEAVY_WEIGHT)


def _support(finding: Finding) -> float:
    """The finding's confidence as support for its family: scaled by cost and by the IR."""
    share = REFUTED_SHARE if finding.evidence.get("not_in_ir") else 1.0
    return finding.confidence * _cost_share(finding) * share


def _supports(finding: Finding) -> list[tuple[str, float, str]]:
    """(family, support, card) a finding lends: its own family in full; an observed symptom
    with several possible causes (`explains_families`) lends each an equal share."""
    if finding.rewrite_family:
        return [(finding.rewrite_family, _support(finding), finding.card_id)]
    families = finding.evidence.get("explains_families") or []
    share = _support(finding) / len(families) if families else 0.0
    return [(family, share, "") for family in families]


# A family the CPU trace measures that says which form a source idiom's mechanism takes, where the
# source cannot: atomics at loaded indices (aggregate first, or a tree) whose keys the run read in
# sorted runs are a segment reduction; an intermediate through memory that a dot launch stores as
# partial tiles and the next launch sums is a split K. The refining family inherits the refined
# one's support.
REFINED_BY_TRACE = {
    "segment-reduce-sorted-keys": frozenset({"aggregate-before-atomics", "tree-reduction-not-atomics"}),
    # an intermediate through memory that is a dot's partial tiles, summed by the next launch
    "drop-split-k": frozenset({"fuse-launches"}),
}


def _look(finding: Finding, tier: int) -> str:
    """The independent look a finding comes from: its tier, and tier 1's run apart from its
    reading (the CPU trace measures what the source only suggests)."""
    return f"{tier}-trace" if finding.kind == "trace" else str(tier)


def rank(tiers: list[TierResult]) -> list[Candidate]:
    """Rewrite families of all findings, best supported first: families with specific support
    before those only fallbacks support, then by score (ties: the higher tier)."""
    best: dict[str, dict[str, tuple[float, str]]] = {}
    specific = {family for tier in tiers for f in tier.findings if not is_fallback(f)
                for family, _, _ in _supports(f)}
    for tier in tiers:
        for f in tier.findings:
            for family, confidence, card in _supports(f):
                if is_fallback(f) and family in specific:
                    continue  # a default guess adds nothing to a family the evidence names
                seen = best.setdefault(family, {})
                # a source estimate the trace measured is one look with the measure, not two: the
                # family keeps the better of the two, not both
                look = f"{tier.tier}-trace" if f.evidence.get("superseded_by_trace") else _look(f, tier.tier)
                if confidence > seen.get(look, (-1.0, ""))[0]:
                    seen[look] = (confidence, card)
    for family, refined in REFINED_BY_TRACE.items():
        own = best.get(family, {})
        if not any(look.endswith("-trace") for look in own):
            continue
        card = next(card for _, card in own.values())
        for other in refined & best.keys():
            for look, (confidence, _) in best[other].items():
                if confidence > own.get(look, (-1.0, ""))[0]:
                    own[look] = (confidence, card)
    ranked = []
    for family, per_look in best.items():
        miss = 1.0
        for confidence, _ in per_look.values():
            miss *= 1.0 - min(max(confidence, 0.0), 1.0)
        cards = [card for _, card in sorted(per_look.values(), reverse=True) if card]
        ranked.append(Candidate(family, round(1.0 - miss, 3), cards[0] if cards else "",
                                {t: round(c, 3) for t, (c, _) in sorted(per_look.items())}))
    ranked.sort(key=lambda c: (c.rewrite_family not in specific, -c.score,
                               -max(int(t.split("-")[0]) for t in c.by_tier)))
    return _outweighed_after_rival(_tuning_after_structure(ranked, tiers), tiers)


def _outweighed_after_rival(ranked: list[Candidate], tiers: list[TierResult]) -> list[Candidate]:
    """A family whose tier-4 answer the ladder found not to explain the cost (`outweighed_by`:
    the family of the costlier evidence, ladder.answer_misses_the_cost) moves just below that
    family: weak looks at a cheap symptom from three tiers can add up to more confidence than
    one measurement of where the time goes, but they do not explain more of the time."""
    below = {f.rewrite_family: f.evidence["outweighed_by"] for t in tiers for f in t.findings
             if f.rewrite_family and f.evidence.get("outweighed_by")}
    for family, rival in below.items():
        order = [c.rewrite_family for c in ranked]
        if family == rival or family not in order or rival not in order:
            continue
        if order.index(family) < order.index(rival):
            moved = ranked.pop(order.index(family))
            ranked.insert([c.rewrite_family for c in ranked].index(rival) + 1, moved)
    return ranked


TUNING_YIELDS = 0.5  # a structural trace finding over this share of the traffic outranks tuning


def _tuning_after_structure(ranked: list[Candidate], tiers: list[TierResult]) -> list[Candidate]:
    """A family only tuning readings of the trace support (`ranks_only`: the tile a loop step
    moves) moves below the families the trace measured a structural cause for over at least
    TUNING_YIELDS of the traffic (most loop steps thrown away, a row walked across its
    stride): a kernel with a structural defect also loops in small tiles, and the tile size is
    not what removing the structure gains."""
    findings = [f for t in tiers for f in t.findings if f.rewrite_family]
    tuning = {f.rewrite_family for f in findings if f.evidence.get("ranks_only")}
    tuning -= {f.rewrite_family for f in findings if not f.evidence.get("ranks_only") and not is_fallback(f)}
    structural = {f.rewrite_family for f in findings if f.kind == "trace" and not f.evidence.get("ranks_only")
                  and not is_fallback(f) and f.evidence.get("share", 0.0) >= TUNING_YIELDS}
    if not tuning or not structural:
        return ranked
    last = max(i for i, c in enumerate(ranked) if c.rewrite_family in structural)
    moved = [c for c in ranked[:last] if c.rewrite_family in tuning]
    kept = [c for c in ranked if c not in moved]
    at = kept.index(ranked[last]) + 1
    return kept[:at] + moved + kept[at:]


# How often each family's first answer was right on development cases the ladder had never seen
# (every round's first run; bench/defects/calibrate.py writes it). It does not move the ranking:
# a rule that demoted families of poor record lost more tuned development cases than it could
# gain on first runs (bench/defects/README.md, session 47). It tells the reader how far to trust
# an answer of that family.
CALIBRATION = Path(__file__).with_name("calibration.json")
POOR_RECORD = 0.5  # right in fewer than half its first answers: say so beside the answer


@cache
def _records() -> dict:
    try:
        return json.loads(CALIBRATION.read_text(encoding="utf-8"))["backends"]
    except (OSError, ValueError, KeyError):
        return {}


def track_record(backend: str, family: str) -> dict | None:
    """{answered, right, reliability} for `family`'s first answers on unseen `backend` cases
    (reliability smoothed toward the backend's base rate); None for a family never answered."""
    entry = _records().get(backend, {}).get("families", {}).get(family)
    return dict(entry) if entry else None
