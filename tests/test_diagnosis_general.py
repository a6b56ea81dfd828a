"""Diagnosis reasoning that must hold for kernels nobody has written yet (issue 12): fallback
guesses never outrank specific evidence, a hypothesis the IR could show but does not counts for
less, and the same defect written in different syntax gets the same answer."""

from __future__ import annotations

import pytest

from diagnose.evidence import Finding, TierResult
from diagnose.ladder import Options, diagnose, make_context
from diagnose.target import resolve_target
from diagnose.triage import triage
from diagnose.weigh import is_fallback, rank
from tests.test_ladder import TASK_1D, VADD_RUNTIME_STRIDE, make_task


def _finding(tier: int, family: str, confidence: float, **evidence) -> Finding:
    return Finding(tier=tier, kind="pattern", card_id="", rewrite_family=family, message="m",
                   confidence=confidence, evidence=evidence)


def _tiers(*findings: Finding) -> list[TierResult]:
    numbers = sorted({f.tier for f in findings})
    return [TierResult(n, f"tier {n}", [f for f in findings if f.tier == n]) for n in numbers]


def test_a_fallback_guess_ranks_after_any_specific_finding() -> None:
    # "no autotune" (tier 1) and "below the roofline for no reason the counters show" (tier 2)
    # agree, but both hold for almost any kernel; a weak tier-4 answer is about this one
    ranked = rank(_tiers(_finding(1, "autotune-configs", 0.45, facts={"fallback": True}),
                         _finding(2, "autotune-configs", 0.4, fallback=True),
                         _finding(4, "pipeline-stages", 0.4)))
    assert [c.rewrite_family for c in ranked] == ["pipeline-stages", "autotune-configs"]
    assert ranked[1].score > ranked[0].score  # the order is not the scores' order


def test_fallbacks_alone_keep_their_score_order_and_one_specific_finding_lifts_a_family() -> None:
    ranked = rank(_tiers(_finding(1, "autotune-configs", 0.45, facts={"fallback": True}),
                         _finding(2, "block-size-tuning", 0.4, fallback=True)))
    assert [c.rewrite_family for c in ranked] == ["autotune-configs", "block-size-tuning"]
    ranked = rank(_tiers(_finding(1, "autotune-configs", 0.45, facts={"fallback": True}),
                         _finding(2, "block-size-tuning", 0.4, fallback=True),
                         _finding(1, "block-size-tuning", 0.3)))
    assert ranked[0].rewrite_family == "block-size-tuning"


def test_a_hypothesis_the_ir_does_not_show_counts_for_less() -> None:
    plain = rank(_tiers(_finding(1, "add-divisibility-hints", 0.3), _finding(1, "int32-indexing", 0.2)))
    refuted = rank(_tiers(_finding(1, "add-divisibility-hints", 0.3, not_in_ir="no narrow loads"),
                          _finding(1, "int32-indexing", 0.2)))
    assert plain[0].rewrite_family == "add-divisibility-hints"
    assert refuted[0].rewrite_family == "int32-indexing"
    assert refuted[1].score == pytest.approx(0.15)


def test_no_autotune_is_a_fallback_and_a_specific_idiom_is_not() -> None:
    source = VADD_RUNTIME_STRIDE.replace("BLOCK=1024", "BLOCK=64")
    found = {f.card_id: f for f in triage(source, "k.py", "cuda").findings}
    assert is_fallback(found["common-no-autotune"])
    assert not is_fallback(found["common-block-size"])


# The same vector add, its stride specialised by Triton (x.stride(0) == 1): the loads are wide,
# so "no divisibility hint on the stride" is a hypothesis the capture speaks against.
VADD_SPECIALISED_STRIDE = VADD_RUNTIME_STRIDE.replace('@triton.jit(do_not_specialize=["stride"])',
                                                      "@triton.jit")


@pytest.fixture(scope="module")
def stride_tasks(tmp_path_factory):
    root = tmp_path_factory.mktemp("stride")
    return (make_task(root, "hidden", TASK_1D, VADD_RUNTIME_STRIDE),
            make_task(root, "specialised", TASK_1D, VADD_SPECIALISED_STRIDE))


def _stride_hypothesis(folder) -> tuple[Finding, object]:
    ctx = make_context(resolve_target(str(folder)), "cuda", Options(max_tier=3, size="small"))
    d = diagnose(ctx)
    return next(f for f in d.tier(1).findings if f.card_id == "cuda-runtime-stride-no-hints"), d


@pytest.mark.slow
def test_stride_hypothesis_is_marked_not_in_ir_when_the_capture_shows_wide_loads(stride_tasks) -> None:
    hypothesis, d = _stride_hypothesis(stride_tasks[1])
    assert "scalar-global-loads" in hypothesis.evidence["not_in_ir"]
    assert d.verdict == "inconclusive"
    scores = {c["rewrite_family"]: c["score"] for c in d.ranking}
    assert scores["add-divisibility-hints"] == pytest.approx(hypothesis.confidence / 2)


@pytest.mark.slow
def test_stride_hypothesis_the_capture_confirms_is_not_marked(stride_tasks) -> None:
    hypothesis, d = _stride_hypothesis(stride_tasks[0])
    assert "not_in_ir" not in hypothesis.evidence
    assert d.conclusion is not None and d.conclusion.rewrite_family == "add-divisibility-hints"


# A serial element walk written as a while loop (no `for ... in range` for a detector to key
# on): the IR's own mechanism (a scalar pointer at the load's line) names the idiom.
TASK_ROWS = '''
import torch
META = {"name": "t", "sizes": {"small": {"M": 4096, "N": 64}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(4096, 64, generator=g), torch.randn(4096, 64, generator=g))
def reference(x, y):
    return x.sum(dim=1)
'''

WHILE_SCALAR_SUM = '''
import torch, triton, triton.language as tl

@triton.jit
def walk_kernel(x_ptr, out_ptr, n):
    row = tl.program_id(0)
    acc = 0.0
    j = 0
    while j < n:
        acc += tl.load(x_ptr + row * n + j)
        j += 1
    tl.store(out_ptr + row, acc)

def run(x, y):
    out = torch.empty(x.shape[0], dtype=x.dtype)
    walk_kernel[(x.shape[0],)](x, out, x.shape[1])
    return out
'''

# The same walk beside a div/mod gather whose narrow loads are as heavy and have three
# possible idioms behind them: the IR no longer names one cause on its own.
WHILE_AND_DIVMOD = WHILE_SCALAR_SUM.replace("def run(x, y):", '''@triton.jit(do_not_specialize=["n_cols"])
def gather_kernel(x_ptr, y_ptr, n, n_cols, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    row = offs // n_cols
    col = offs % n_cols
    m = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + row * n_cols + col, mask=m) * 2, mask=m)

def run(x, y):
    scaled = torch.empty_like(y)
    gather_kernel[(triton.cdiv(y.numel(), 1024),)](y, scaled, y.numel(), 100, BLOCK=1024)''', 1)


@pytest.mark.slow
def test_tier3_concludes_when_the_ir_mechanism_names_one_idiom(tmp_path) -> None:
    folder = make_task(tmp_path, "walk", TASK_ROWS, WHILE_SCALAR_SUM)
    d = diagnose(make_context(resolve_target(str(folder)), "cuda", Options(max_tier=3)))
    assert d.verdict == "concluded" and d.concluded_tier == 3
    assert d.conclusion.rewrite_family == "vectorize-loads"
    assert d.conclusion.card_id == "cuda-scalar-element-loop"
    assert "scalar-pointer" in d.reason


@pytest.mark.slow
def test_tier3_does_not_conclude_alone_when_an_ambiguous_symptom_is_as_heavy(tmp_path) -> None:
    folder = make_task(tmp_path, "walk_gather", TASK_ROWS, WHILE_AND_DIVMOD)
    d = diagnose(make_context(resolve_target(str(folder)), "cuda", Options(max_tier=3)))
    ir = d.tier(3)
    weights = sorted((f.evidence.get("weight"), f.rewrite_family) for f in ir.findings)
    assert weights == [(2, ""), (2, "vectorize-loads")]  # two narrow-load symptoms, as heavy
    assert not ir.sufficient
    assert d.concluded_tier != 3 or d.conclusion.card_id != "cuda-scalar-element-loop"
