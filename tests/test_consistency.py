"""A diagnosis report agrees with itself (diagnose/consistency.py): each inconsistency the
checker knows is caught on a report that has it, the ladder's own conclusions pass, and so
does the shape of every development case's diagnosis (tests/diagnosis_fixtures)."""

from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path

import pytest

from diagnose.consistency import problems
from diagnose.evidence import Finding, TierResult
from diagnose.ladder import Context, Options, _diagnosis, decide, make_context
from diagnose.target import resolve_target

ROOT = Path(__file__).resolve().parent.parent
SHAPES = Path(__file__).parent / "diagnosis_fixtures" / "dev-cases.json.gz"
KERNEL = ROOT / "bench" / "defects" / "gemm-fp32-ieee-dot" / "slow.py"


def _pattern(card: str, family: str, message: str, snippet: str = "x = tl.load(p)",
             confidence: float = 0.7, function: str = "k") -> Finding:
    return Finding(1, "pattern", card, family, message, confidence,
                   {"path": "k.py", "function": function, "line": 10, "end_line": 10},
                   {"snippet": snippet, "facts": {}})


def _symptom(symptom: str, message: str, cards: list[str], family: str = "",
             weight: int = 2, function: str = "k") -> Finding:
    return Finding(3, "ir-symptom", cards[0] if family else "", family, message, 0.9,
                   {"path": "k.py", "function": function, "line": None},
                   {"symptom": symptom, "explains_cards": cards, "line_cards": {},
                    "weight": weight}, passes=["tritongpu-coalesce"])


def _context(*tiers: TierResult) -> Context:
    ctx = make_context(resolve_target(str(KERNEL)), "cuda", Options(max_tier=3))
    ctx.evidence = list(tiers)
    return ctx


def _report(ctx: Context) -> dict:
    return _diagnosis(ctx, decide(ctx), [], {}).to_dict()


def _head_of(report: dict, ref: dict) -> str:
    tier = next(t for t in report["tiers"] if t["tier"] == ref["tier"])
    return " ".join(tier["findings"][ref["index"]]["message"].split()[:8])


@pytest.fixture
def confirmed_report() -> dict:
    """A tier-3 confirmation of a tier-1 hypothesis, as the ladder writes it."""
    hypothesis = _pattern("cuda-fp32-dot", "lower-precision-dot",
                          "`tl.dot` in `k`: operands are upcast to fp32 before the dot.")
    other = _pattern("common-no-autotune", "autotune-configs", "`k` has no @triton.autotune.",
                     confidence=0.45)
    fact = _symptom("convert-layout-survives", "2 ttg.convert_layout reach LLVM lowering",
                    ["cuda-fp32-dot", "cuda-layout-conversion-churn"])
    ctx = _context(TierResult(1, "pattern triage", [hypothesis, other]),
                   TierResult(3, "IR attribution", [fact]))
    return _report(ctx)


def test_ladder_confirmation_is_consistent_and_names_the_cause(confirmed_report: dict) -> None:
    assert confirmed_report["verdict"] == "concluded"
    assert confirmed_report["conclusion"]["rewrite_family"] == "lower-precision-dot"
    assert problems(confirmed_report) == []


def test_tier3_alone_conclusion_gets_a_card_and_leads_the_ranking() -> None:
    """A standalone tier-3 finding without a card of its own (several cards explain spills)
    still concludes with the family's card, and its family heads the ranking even when a
    tier-1 guess scored higher."""
    guess = _pattern("common-no-autotune", "autotune-configs", "`k` has no autotune.",
                     confidence=0.95)
    spills = _symptom("register-spills", "255 registers, 40 B spill stores",
                      ["cuda-register-spills"], family="block-size-tuning", weight=3)
    spills.card_id = ""
    tier3 = TierResult(3, "IR attribution", [spills], sufficient=True,
                       reason="The IR shows 255 registers, 40 B spill stores, an idiom ...")
    report = _report(_context(TierResult(1, "pattern triage", [guess]), tier3))
    assert report["conclusion"]["card_id"] == "cuda-register-spills"
    assert report["ranking"][0]["rewrite_family"] == "block-size-tuning"
    assert "Expected effect" not in report["conclusion"]["explanation"]  # tier 1 never saw it
    assert problems(report) == []


def test_tier_alone_explanation_comes_from_the_finding_its_reason_names() -> None:
    first = _symptom("scalar-global-loads", "12 of 12 global loads are <= 32-bit",
                     ["cuda-scalar-element-loop"], family="vectorize-loads")
    named = _symptom("register-spills", "255 registers, 40 B spill stores",
                     ["cuda-register-spills"], family="block-size-tuning", weight=3)
    tier3 = TierResult(3, "IR attribution", [first, named], sufficient=True,
                       reason="The IR shows 255 registers, 40 B spill stores, an idiom ...")
    report = _report(_context(TierResult(1, "pattern triage", []), tier3))
    assert report["conclusion"]["rewrite_family"] == "block-size-tuning"
    assert report["conclusion"]["explanation"].startswith("255 registers")
    assert problems(report) == []


@pytest.mark.parametrize("break_it, expected", [
    (lambda r: r["conclusion"].update(rewrite_family=""), "names no rewrite family"),
    (lambda r: r["conclusion"].update(card_id=""), "names no pattern card"),
    (lambda r: r["ranking"].reverse(), "ranking puts"),
    (lambda r: r["conclusion"].update(explanation="Something else entirely."),
     "explanation does not come from"),
    (lambda r: r.update(reason="Because."), "reason names neither"),
    # the reason speaks of the IR fact (a later supporting finding) under another card's
    # name, while the explanation comes from the first one
    (lambda r: r.update(reason="Concluded: " + _head_of(r, r["conclusion"]["supporting"][1])
                        + " (card cuda-layout-conversion-churn).",
                        conclusion=r["conclusion"] | {"card_id": "cuda-other-card"}),
     "reason names neither"),
    (lambda r: r["conclusion"].update(
        explanation=r["conclusion"]["explanation"].split("Expected effect:")[0]
        + "Expected effect: elementwise tiles get faster."), "expected-effect sentence"),
    (lambda r: r["conclusion"]["supporting"].append(
        {"tier": 3, "index": 7, "kind": "ir-symptom", "card_id": ""}), "does not exist"),
    (lambda r: r.update(conclusion=None), "no conclusion"),
    (lambda r: r.update(verdict="maybe"), "neither concluded"),
])
def test_checker_catches_each_inconsistency(confirmed_report: dict, break_it, expected) -> None:
    report = copy.deepcopy(confirmed_report)
    break_it(report)
    found = problems(report)
    assert any(expected in p for p in found), found


def test_store_defect_confirmed_only_by_a_load_sentence_is_caught() -> None:
    store = _pattern("cuda-strided-fast-axis", "coalesce-contiguous-axis",
                     "`store` in `k` walks its fastest-varying index with stride `n`.",
                     snippet="tl.store(out_ptr + cols * n, y)")
    stores = _symptom("scalar-global-loads", "global stores are <= 32-bit at lines 12",
                      ["cuda-strided-fast-axis"])
    report = _report(_context(TierResult(1, "pattern triage", [store]),
                              TierResult(3, "IR attribution", [stores])))
    assert report["verdict"] == "concluded" and problems(report) == []
    # the same report with its fact speaking only of loads is caught by the checker ...
    fact = next(t for t in report["tiers"] if t["tier"] == 3)["findings"][0]
    fact["message"] = "12 of 12 global loads are <= 32-bit"
    assert "a store defect is confirmed only by evidence about loads" in problems(report)
    # ... and the ladder no longer writes it: a load fact does not confirm a store idiom
    loads = _symptom("scalar-global-loads", "12 of 12 global loads are <= 32-bit",
                     ["cuda-strided-fast-axis"])
    again = _report(_context(TierResult(1, "pattern triage", [store]),
                             TierResult(3, "IR attribution", [loads])))
    assert again["verdict"] != "concluded" and problems(again) == []


def test_every_development_case_report_shape_is_consistent() -> None:
    """The reports bench/defects/run_diagnosis.py wrote for the development cases (reduced to
    the fields a reader checks), one entry per case and configuration."""
    shapes = json.loads(gzip.decompress(SHAPES.read_bytes()))
    assert len(shapes) >= 30
    bad = {name: problems(report) for name, report in shapes.items() if problems(report)}
    assert not bad, bad


def test_tier4_conclusion_reason_names_the_finding_that_concludes() -> None:
    """Tier 4's own reason is about its search; the report's reason still names the answer."""
    answer = Finding(4, "pass-source", "", "vectorize-loads",
                     "scalar-global-loads -> tritongpu-coalesce is the pass responsible", 0.8,
                     {"path": "lib/Analysis/AxisInfo.cpp", "line": 980},
                     {"symptom_asked": "scalar-global-loads"}, passes=["tritongpu-coalesce"])
    tier4 = TierResult(4, "compiler-source escalation", [answer], sufficient=True,
                       reason="5 passages about tritongpu-coalesce were found.")
    report = _report(_context(TierResult(1, "pattern triage", []),
                              TierResult(3, "IR attribution", [_symptom(
                                  "scalar-global-loads", "12 of 12 global loads are <= 32-bit",
                                  ["cuda-scalar-element-loop"])]), tier4))
    assert report["verdict"] == "concluded" and report["concluded_tier"] == 4
    assert report["conclusion"]["card_id"] == "cuda-scalar-element-loop"
    assert problems(report) == []
