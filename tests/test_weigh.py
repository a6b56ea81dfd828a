"""diagnose/weigh.py: how the findings of all tiers rank the rewrite families."""

from __future__ import annotations

import pytest

from diagnose.evidence import Finding, TierResult
from diagnose.weigh import rank


def finding(tier: int, family: str, confidence: float, card: str = "") -> Finding:
    return Finding(tier=tier, kind="pattern", card_id=card, rewrite_family=family,
                   message="m", confidence=confidence)


def tiers(*findings: Finding) -> list[TierResult]:
    numbers = sorted({f.tier for f in findings})
    return [TierResult(n, f"tier {n}", [f for f in findings if f.tier == n]) for n in numbers]


def test_agreement_across_tiers_beats_one_stronger_finding():
    ranked = rank(tiers(finding(1, "fuse-launches", 0.75, "common-unfused-launches"),
                        finding(3, "fuse-launches", 0.8),
                        finding(4, "layout-friendly-shapes", 0.85)))
    assert [c.rewrite_family for c in ranked] == ["fuse-launches", "layout-friendly-shapes"]
    assert ranked[0].score == pytest.approx(1 - 0.25 * 0.2)
    assert ranked[0].by_tier == {"1": 0.75, "3": 0.8}
    assert ranked[0].card_id == "common-unfused-launches"


def test_repeats_within_one_tier_do_not_add_up():
    # the same generic card on three kernels is one look at the source, not three
    ranked = rank(tiers(*[finding(1, "autotune-configs", 0.45) for _ in range(3)],
                        finding(1, "drop-redundant-select", 0.55)))
    assert ranked[0].rewrite_family == "drop-redundant-select"
    assert ranked[1].score == 0.45


def test_findings_without_a_family_are_not_candidates_and_ties_go_to_the_higher_tier():
    ranked = rank(tiers(finding(1, "", 0.9), finding(1, "a", 0.5), finding(3, "b", 0.5)))
    assert [c.rewrite_family for c in ranked] == ["b", "a"]
    assert rank([]) == []
