"""Diagnosis reasoning that must hold for kernels nobody has written yet (issue 12): fallback
guesses never outrank specific evidence, a hypothesis the IR could show but does not counts for
less, and the same defect written in different syntax gets the same answer."""

from __future__ import annotations

import pytest

from diagnose.evidence import Finding, TierResult
from diagnose.ladder import Options, diagnose, make_context, tier3
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


def _symptom(weight: int, families: list[str], family: str = "") -> Finding:
    return Finding(tier=3, kind="ir-symptom", card_id="", rewrite_family=family, message="ir",
                   confidence=0.9, evidence={"weight": weight, "explains_families": families})


def test_an_observed_symptom_with_several_causes_lends_each_an_equal_share() -> None:
    # the loop was not pipelined (weight 3): stages or a mask in the K loop; a table answer
    # of tier 4 and the share agree on stages, ahead of a weak source hint
    ranked = rank(_tiers(_symptom(3, ["pipeline-stages", "even-k-specialization"]),
                         _finding(4, "pipeline-stages", 0.4),
                         _finding(1, "l2-grouped-ordering", 0.35)))
    scores = {c.rewrite_family: c.score for c in ranked}
    assert ranked[0].rewrite_family == "pipeline-stages"
    assert scores["even-k-specialization"] == pytest.approx(0.45)
    assert scores["pipeline-stages"] == pytest.approx(1 - 0.55 * 0.6)


def test_a_symptom_that_names_its_own_family_lends_nothing_to_the_others() -> None:
    ranked = rank(_tiers(_symptom(3, ["vectorize-loads", "coalesce-contiguous-axis"],
                                  family="vectorize-loads")))
    assert [c.rewrite_family for c in ranked] == ["vectorize-loads"]


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


def _tier3_alone(folder) -> TierResult:
    """Tier 3 by itself (no tier-1 hypotheses in the context), as the ladder adapts it."""
    return tier3(make_context(resolve_target(str(folder)), "cuda", Options(max_tier=3)))


@pytest.mark.slow
def test_tier3_is_enough_alone_when_the_ir_mechanism_names_one_idiom(tmp_path) -> None:
    ir = _tier3_alone(make_task(tmp_path, "walk", TASK_ROWS, WHILE_SCALAR_SUM))
    assert ir.sufficient
    assert "scalar-pointer" in ir.reason and "cuda-scalar-element-loop" in ir.reason


@pytest.mark.slow
def test_tier3_is_not_enough_alone_when_an_ambiguous_symptom_is_as_heavy(tmp_path) -> None:
    ir = _tier3_alone(make_task(tmp_path, "walk_gather", TASK_ROWS, WHILE_AND_DIVMOD))
    weights = sorted((f.evidence.get("weight"), f.rewrite_family) for f in ir.findings)
    assert weights == [(2, ""), (2, "vectorize-loads")]  # two narrow-load symptoms, as heavy
    assert not ir.sufficient


@pytest.mark.slow
def test_the_while_walk_concludes_at_tier3_with_the_scalar_loop_card(tmp_path) -> None:
    folder = make_task(tmp_path, "walk2", TASK_ROWS, WHILE_SCALAR_SUM)
    d = diagnose(make_context(resolve_target(str(folder)), "cuda", Options(max_tier=3)))
    assert d.verdict == "concluded" and d.concluded_tier == 3
    assert (d.conclusion.rewrite_family, d.conclusion.card_id) == ("vectorize-loads",
                                                                   "cuda-scalar-element-loop")


# ---------------------------------------------------------------- one idiom, several spellings

def _cards_of(source: str) -> set[str]:
    return {f.card_id for f in triage(source, "k.py", "cuda").findings}


GEMM_LOOP = '''
import torch, triton, triton.language as tl

@triton.jit
def mm(a_ptr, b_ptr, c_ptr, K, N, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in LOOP:
        a = tl.load(a_ptr + rm[:, None] * K + (k0 + rk)[None, :])
        b = tl.load(b_ptr + (k0 + rk)[:, None] * N + rn[None, :])
        acc = DOT
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16))

def run(a, b):
    c = torch.empty((a.shape[0], b.shape[1]), dtype=a.dtype)
    mm[(32, 32)](a, b, c, a.shape[1], b.shape[1], BM=128, BN=128, BK=64, num_warps=8)
    return c
'''


def _gemm(loop: str = "range(0, K, BK)", dot: str = "tl.dot(a, b, acc)") -> str:
    return GEMM_LOOP.replace("LOOP", loop).replace("DOT", dot)


@pytest.mark.parametrize("dot", ["tl.dot(tl.cast(a, tl.float32), tl.cast(b, tl.float32), acc)",
                                 "tl.dot(a.to(dtype=tl.float32), b.to(dtype=tl.float32), acc)",
                                 "tl.dot(a.to(tl.float32), b.to(tl.float32), acc)"])
def test_operands_upcast_before_the_dot_are_seen_however_the_cast_is_spelled(dot: str) -> None:
    assert "cuda-fp32-dot" in _cards_of(_gemm(dot=dot))


def test_a_cast_of_the_accumulator_after_the_dot_is_not_an_upcast_operand() -> None:
    assert "cuda-fp32-dot" not in _cards_of(_gemm(dot="tl.cast(tl.dot(a, b, acc), tl.float32)"))


def test_num_stages_set_on_the_loop_itself_is_seen_and_a_pipelined_loop_is_not() -> None:
    assert "cuda-kloop-unpipelined" in _cards_of(_gemm(loop="tl.range(0, K, BK, num_stages=1)"))
    assert "cuda-kloop-unpipelined" not in _cards_of(_gemm(loop="tl.range(0, K, BK, num_stages=3)"))


FP64_ACC = '''
import torch, triton, triton.language as tl

@triton.jit
def mean_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=ACC)
    for s in range(0, n, BLOCK):
        o = s + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + o, mask=o < n, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0) / n)

def run(x):
    out = torch.empty(1, dtype=torch.float32)
    mean_kernel[(1,)](x, out, x.numel(), BLOCK=1024)
    return out
'''


def test_a_tile_created_in_fp64_is_fp64_math_and_one_in_fp32_is_not() -> None:
    assert "cuda-fp64-math" in _cards_of(FP64_ACC.replace("ACC", "tl.float64"))
    assert "cuda-fp64-math" not in _cards_of(FP64_ACC.replace("ACC", "tl.float32"))


ZEROED = '''
import torch, triton, triton.language as tl

@triton.jit
def scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) * 2, mask=m)

def run(x):
    ALLOC
    scale_kernel[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)
    return out
'''


@pytest.mark.parametrize("alloc", ["out = torch.empty_like(x).zero_()",
                                   "out = torch.full_like(x, 0)",
                                   "out = torch.full(x.shape, 0.0, dtype=x.dtype)",
                                   "out = torch.empty_like(x)\n    out.fill_(0)"])
def test_zero_fills_are_seen_however_they_are_written(alloc: str) -> None:
    assert "common-zeroed-output" in _cards_of(ZEROED.replace("ALLOC", alloc))


@pytest.mark.parametrize("alloc", ["out = torch.full_like(x, 1.0)", "out = torch.empty_like(x)"])
def test_a_fill_that_is_not_zero_or_no_fill_is_not_a_zeroed_output(alloc: str) -> None:
    assert "common-zeroed-output" not in _cards_of(ZEROED.replace("ALLOC", alloc))


ONE_WARP_AUTOTUNE = '''
import torch, triton, triton.language as tl

@triton.autotune(configs=CONFIGS, key=["n"])
@triton.jit
def row_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + tl.program_id(0) * n + cols, mask=cols < n)
    tl.store(out_ptr + tl.program_id(0) * n + cols, x * 2, mask=cols < n)

def run(x):
    out = torch.empty_like(x)
    row_kernel[(x.shape[0],)](x, out, x.shape[1])
    return out
'''


def test_an_autotune_whose_every_config_agrees_is_a_constant_launch_value() -> None:
    one = "[triton.Config({'BLOCK': 8192}, num_warps=1)]"
    two = "[triton.Config({'BLOCK': 8192}, num_warps=1), triton.Config({'BLOCK': 8192}, num_warps=8)]"
    assert "cuda-too-few-warps" in _cards_of(ONE_WARP_AUTOTUNE.replace("CONFIGS", one))
    assert "cuda-too-few-warps" not in _cards_of(ONE_WARP_AUTOTUNE.replace("CONFIGS", two))


TILE_WHILE = '''
import torch, triton, triton.language as tl

@triton.jit
def walk_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    s = 0
    while s < n:
        o = s + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + o, mask=o < n, other=0.0)
        s += BLOCK
    tl.store(out_ptr, tl.sum(acc, axis=0))

def run(x, y):
    out = torch.empty(1, dtype=x.dtype)
    walk_kernel[(1,)](x, out, x.numel(), BLOCK=1024)
    return out
'''


def test_an_element_walk_written_as_a_while_loop_is_a_scalar_loop_and_a_tile_walk_is_not() -> None:
    assert "cuda-scalar-element-loop" in _cards_of(WHILE_SCALAR_SUM)
    assert "cuda-scalar-element-loop" not in _cards_of(TILE_WHILE)


def test_the_fp64_hypothesis_spans_every_place_that_makes_fp64_math() -> None:
    # so an IR fact at the conversion's line (spills of wide values) confirms it even when an
    # fp64 accumulator is created first
    source = FP64_ACC.replace("ACC", "tl.float64").replace(
        "acc += tl.load(x_ptr + o, mask=o < n, other=0.0)",
        "acc += tl.load(x_ptr + o, mask=o < n, other=0.0).to(tl.float64)")
    fp64 = next(f for f in triage(source, "k.py", "cuda").findings if f.card_id == "cuda-fp64-math")
    lines = source.splitlines()
    created = next(i for i, ln in enumerate(lines, 1) if "tl.zeros" in ln)
    converted = next(i for i, ln in enumerate(lines, 1) if ".to(tl.float64)" in ln)
    assert fp64.location["line"] == created and fp64.location["end_line"] >= converted
    assert ".to(tl.float64)" in fp64.evidence["snippet"]  # the conversion is what it quotes


COLUMN_SUM = '''
import torch, triton, triton.language as tl

@triton.jit
def colsum_kernel(x_ptr, out_ptr, M, stride_m, stride_n, BLOCK: tl.constexpr):
    col = tl.program_id(0)
    rows = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + rows * stride_m + col * stride_n, mask=rows < M, other=0.0)
    tl.store(out_ptr + col, tl.sum(x, axis=0))

def run(x):
    M, N = x.shape
    out = torch.empty(N, dtype=x.dtype)
    colsum_kernel[(N,)](x, out, M, STRIDES, BLOCK=triton.next_power_of_2(M))
    return out
'''


@pytest.mark.parametrize("strides", ["N, 1", "x.shape[1], 1", "x.size(1), 1"])
def test_a_stride_argument_bound_to_a_row_length_walks_a_column(strides: str) -> None:
    assert "cuda-strided-fast-axis" in _cards_of(COLUMN_SUM.replace("STRIDES", strides))


def test_a_stride_argument_bound_to_one_is_contiguous() -> None:
    row_walk = COLUMN_SUM.replace("rows * stride_m + col * stride_n", "col * stride_m + rows * stride_n")
    assert "cuda-strided-fast-axis" not in _cards_of(row_walk.replace("STRIDES", "N, 1"))


MAX_WHERE = '''
import torch, triton, triton.language as tl

@triton.jit
def max_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=-float("inf"))
    x = tl.where(COND, x, -float("inf"))
    tl.store(out_ptr + tl.program_id(0), tl.max(x, axis=0))

def run(x):
    out = torch.empty(triton.cdiv(x.numel(), 1024), dtype=x.dtype)
    max_kernel[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)
    return out
'''


def test_a_select_repeating_the_loads_mask_written_out_again_is_redundant() -> None:
    assert "common-redundant-select" in _cards_of(MAX_WHERE.replace("COND", "m"))
    assert "common-redundant-select" in _cards_of(MAX_WHERE.replace("COND", "offs < n"))
    assert "common-redundant-select" not in _cards_of(MAX_WHERE.replace("COND", "offs < n - 1"))


def test_tier2_default_hints_are_fallbacks_and_a_limiter_the_counters_name_is_not(tmp_path) -> None:
    from tests.test_diagnosis_classes import _profile_with

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    unexplained = _profile_with(tmp_path / "a", "(65536, 1, 1)", "(128, 1, 1)")
    named = _profile_with(tmp_path / "b", "(16, 1, 1)", "(128, 1, 1)")
    guesses = [f for f in unexplained.findings if f.rewrite_family == "autotune-configs"]
    assert guesses and all(is_fallback(f) for f in guesses)
    grid = [f for f in named.findings if f.rewrite_family == "split-work-across-programs"]
    assert grid and not any(is_fallback(f) for f in grid)


# A persistent launcher sizes its grid from the device's SM count, as real ones do; the
# capture machine has no GPU, so the capture target answers (132 SMs for sm_90).
PERSISTENT_ROWS = '''
import torch, triton, triton.language as tl

@triton.jit
def rows_kernel(x_ptr, out_ptr, M, N, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    for row in tl.range(tl.program_id(0), M, tl.num_programs(0)):
        x = tl.load(x_ptr + row * N + cols, mask=cols < N, other=0.0)
        tl.store(out_ptr + row, tl.sum(x, axis=0))

def run(x, y):
    M, N = x.shape
    out = torch.empty(M, dtype=x.dtype)
    sms = torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count
    rows_kernel[(sms PROGRAMS,)](x, out, M, N, BLOCK=triton.next_power_of_2(N))
    return out
'''


@pytest.mark.slow
def test_a_launcher_that_asks_the_device_for_its_sm_count_is_captured(tmp_path) -> None:
    few = _tier3_alone(make_task(tmp_path, "few", TASK_ROWS, PERSISTENT_ROWS.replace("PROGRAMS", "// 8")))
    many = _tier3_alone(make_task(tmp_path, "many", TASK_ROWS, PERSISTENT_ROWS.replace("PROGRAMS", "* 4")))
    assert not any(f.kind == "compile-failure" for f in few.findings + many.findings)
    underfill = [f for f in few.findings if f.evidence.get("symptom") == "grid-underfill"]
    assert underfill and "16 programs" in underfill[0].message  # 132 // 8
    assert not any(f.evidence.get("symptom") == "grid-underfill" for f in many.findings)
