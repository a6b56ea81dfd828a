"""Session 23's general rules. A cheap IR symptom (narrow loads) confirming a weak claim about
how an access is issued, or a tier-4 answer about why that symptom happens, does not answer
over an idiom about work the IR cannot show that tier 1 is fairly sure of: the idiom's wasted
work is the cost, the narrow loads are how the wasted work is issued. The machine a small grid
leaves idle is a share of the launch's time whether bytes or a serial walk fill it. Tier 1
reads `acc = acc + x`, a mask passed by position and an address bound to a local first as the
usual spellings (tests/test_triage_spellings.py runs every fixture through them)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from diagnose.evidence import Finding, TierResult
from diagnose.ladder import (
    SOURCE_CAUSE_CONFIDENCE,
    Options,
    answer_misses_the_cost,
    decide,
    make_context,
    tier1,
)
from diagnose.target import resolve_target
from diagnose.triage import triage
from tests.test_diagnosis_session22 import WALK, WALK_TASK

ROOT = Path(__file__).resolve().parent
KERNEL = ROOT / "triage_fixtures" / "retired_lanes_pos.py"


def _hint(line: int) -> Finding:
    """A weak tier-1 claim that a runtime stride lacks a divisibility hint, at `line`."""
    return Finding(1, "pattern", "cuda-runtime-stride-no-hints", "add-divisibility-hints",
                   "addresses memory with a runtime stride and states no hint", 0.3,
                   {"path": str(KERNEL), "function": None, "line": line},
                   {"snippet": "tl.load(x_ptr + i * stride)"})


def _narrow_loads(line: int) -> Finding:
    return Finding(3, "ir-symptom", "", "", "4 of 4 global loads are <= 32-bit", 0.9,
                   {"path": str(KERNEL), "function": None, "line": line},
                   {"symptom": "scalar-global-loads", "weight": 2,
                    "explains_cards": ["cuda-runtime-stride-no-hints"],
                    "line_cards": {str(line): ["cuda-runtime-stride-no-hints"]}},
                   passes=["tritongpu-coalesce"])


def _context(idiom_confidence: float):
    source = KERNEL.read_text()
    first = triage(source, str(KERNEL), "cuda")
    idiom = next(f for f in first.findings if f.card_id == "common-retired-lanes-loop")
    idiom.confidence = idiom_confidence
    line = idiom.location["line"]
    first.findings.append(_hint(line))
    ctx = make_context(resolve_target(str(KERNEL)), "cuda", Options())
    ctx.evidence = [first, TierResult(2, "profiling", []),
                    TierResult(3, "IR attribution", [_narrow_loads(line)])]
    return ctx


def test_a_cheap_symptom_confirming_a_weak_hint_climbs_over_a_surer_work_idiom() -> None:
    decision = decide(_context(0.6))
    assert not decision.stop
    assert "common-retired-lanes-loop" in decision.reason
    # below the floor the idiom is no rival: the confirmation stands
    decision = decide(_context(SOURCE_CAUSE_CONFIDENCE - 0.05))
    assert decision.stop and decision.conclusion.rewrite_family == "add-divisibility-hints"


def test_a_tier4_answer_about_a_cheap_symptom_gives_way_to_a_surer_work_idiom() -> None:
    def answered(confidence: float):
        ctx = _context(confidence)
        answer = Finding(4, "pass-source", "cuda-runtime-stride-no-hints", "add-divisibility-hints",
                         "AxisInfo decides the alignment", 0.7,
                         evidence={"symptom_asked": "scalar-global-loads"})
        ctx.evidence.append(TierResult(4, "compiler-source escalation", [answer], sufficient=True,
                                       reason="AxisInfo decides the alignment"))
        return ctx, answer

    ctx, answer = answered(0.6)
    decision = answer_misses_the_cost(ctx)
    assert decision is not None and not decision.stop
    assert answer.confidence == 0.35 and not ctx.evidence[-1].sufficient
    ctx, answer = answered(SOURCE_CAUSE_CONFIDENCE - 0.05)
    assert answer_misses_the_cost(ctx) is None and answer.confidence == 0.7


@pytest.mark.xdist_group("trace")
def test_the_machine_a_small_grid_leaves_idle_is_not_discounted_by_a_serial_walk(tmp_path) -> None:
    """Four programs on 132 SMs, each walking its row one element per step: the walk makes the
    bytes a small part of the time, but the idle SMs are idle for the walk as well."""
    (tmp_path / "task.py").write_text(textwrap.dedent(WALK_TASK))
    (tmp_path / "walk.py").write_text(textwrap.dedent(WALK))
    ctx = make_context(resolve_target(str(tmp_path), str(tmp_path / "walk.py")), "cuda",
                       Options(max_tier=1, size="small", trace=True))
    traced = [f for f in tier1(ctx).findings if f.kind == "trace"]
    walked = [f for f in traced if "walk_scaled" in f.evidence]
    idle = [f for f in traced if f.rewrite_family == "split-work-across-programs"]
    assert idle, [f.message for f in traced]
    assert "walk_scaled" not in idle[0].evidence and idle[0].evidence["share"] >= 0.9
    assert all(f.rewrite_family != "split-work-across-programs" for f in walked)


def test_a_runner_answer_that_records_a_failed_device_run_says_so(tmp_path) -> None:
    from diagnose.target import DiagnosisError, load_runner_json, runner_json_failed

    failed = tmp_path / "failed.json"
    failed.write_text(json.dumps({"case": "k", "bench": {"error": "TimeoutExpired: runner gave no JSON"}}))
    with pytest.raises(DiagnosisError, match="failed on the device \\(TimeoutExpired"):
        load_runner_json(failed)
    assert runner_json_failed(failed) == "TimeoutExpired: runner gave no JSON"
    measured = tmp_path / "measured.json"
    measured.write_text(json.dumps({"bench": {"points": [], "error": "ignored"}}))
    assert runner_json_failed(measured) is None
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"unrelated": 1}))
    assert runner_json_failed(other) is None
    with pytest.raises(DiagnosisError, match="neither a runner bench answer"):
        load_runner_json(other)
