"""Two defect classes the first spent held-out cases showed (issue 12), in general form: CUDA
accesses masked by loaded data (the mask's constancy is 1, so no vector access), and a dot K loop
that steps by one MMA k-step. Each: tier 1 on a kernel it fits and one it must leave alone, and
the real sm_90 IR naming the mechanism."""

from __future__ import annotations

import pytest

from diagnose.ladder import Options, diagnose, make_context
from diagnose.target import resolve_target
from diagnose.triage import triage
from tests.test_ladder import make_task

TASK_WHERE = '''
import torch
META = {"name": "t", "sizes": {"small": {"N": 8192}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(8192, generator=g) > 0.5, torch.randn(8192, generator=g).half(),
            torch.randn(8192, generator=g).half())
def reference(c, x, y):
    return torch.where(c, x, y)
'''

WHERE_DATA_MASKS = '''
import torch, triton, triton.language as tl

@triton.jit
def pick_kernel(c_ptr, x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inb = offs < n
    c = tl.load(c_ptr + offs, mask=inb, other=0) != 0
    first = inb & c
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=first), mask=first)
    other = inb & (c == 0)
    tl.store(out_ptr + offs, tl.load(y_ptr + offs, mask=other), mask=other)

def run(c, x, y):
    out = torch.empty_like(x)
    pick_kernel[(triton.cdiv(x.numel(), 1024),)](c, x, y, out, x.numel(), BLOCK=1024)
    return out
'''

WHERE_SELECT = '''
import torch, triton, triton.language as tl

@triton.jit
def pick_kernel(c_ptr, x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inb = offs < n
    c = tl.load(c_ptr + offs, mask=inb, other=0) != 0
    x = tl.load(x_ptr + offs, mask=inb)
    y = tl.load(y_ptr + offs, mask=inb)
    tl.store(out_ptr + offs, tl.where(c, x, y), mask=inb)

def run(c, x, y):
    out = torch.empty_like(x)
    pick_kernel[(triton.cdiv(x.numel(), 1024),)](c, x, y, out, x.numel(), BLOCK=1024)
    return out
'''

TASK_MM = '''
import torch
META = {"name": "t", "sizes": {"small": {"M": 1024, "N": 1024, "K": 256}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(1024, 256, generator=g).half(), torch.randn(256, 1024, generator=g).half())
def reference(a, b):
    return (a.float() @ b.float()).half()
'''

MM = '''
import torch, triton, triton.language as tl

@triton.jit
def mm_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16))

def run(a, b):
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), dtype=a.dtype)
    step = KSTEP
    mm_kernel[(M // 64, N // 64)](a, b, c, M, N, K, BM=64, BN=64, BK=step)
    return c
'''


def _cards(source: str) -> list[str]:
    return [f.card_id for f in triage(source, "k.py", "cuda").findings]


def test_cuda_accesses_masked_by_loaded_data_are_hypothesised_and_a_select_is_not() -> None:
    cards = _cards(WHERE_DATA_MASKS)
    assert cards.count("cuda-data-dependent-mask") == 4  # two loads, two stores
    assert "cuda-data-dependent-mask" not in _cards(WHERE_SELECT)


@pytest.mark.parametrize("step,fires", [("16", True), ("8", True), ("64", False)])
def test_a_dot_loop_stepping_k_by_one_mma_step_is_hypothesised(step: str, fires: bool) -> None:
    assert ("cuda-thin-k-tile" in _cards(MM.replace("KSTEP", step))) is fires


def _diagnose(folder) -> object:
    return diagnose(make_context(resolve_target(str(folder)), "cuda", Options(max_tier=3),
                                 open_kb=None))


@pytest.mark.slow
def test_data_masked_accesses_conclude_at_tier3_from_the_masks_ssa_chain(tmp_path) -> None:
    d = _diagnose(make_task(tmp_path, "where", TASK_WHERE, WHERE_DATA_MASKS))
    assert d.verdict == "concluded" and d.concluded_tier == 3
    assert (d.conclusion.rewrite_family, d.conclusion.card_id) == (
        "select-instead-of-data-mask", "cuda-data-dependent-mask")
    narrow = next(f for t in d.tiers if t.tier == 3 for f in t.findings
                  if f.evidence.get("symptom") == "scalar-global-loads")
    assert set(narrow.evidence["mechanisms"]) == {"data-mask"}  # no hint would widen them


@pytest.mark.slow
def test_a_one_mma_step_k_loop_is_an_ir_symptom_and_a_64_wide_one_is_not(tmp_path) -> None:
    thin = _diagnose(make_task(tmp_path, "thin", TASK_MM, MM.replace("KSTEP", "16")))
    assert (thin.conclusion.rewrite_family, thin.conclusion.card_id) == (
        "block-size-tuning", "cuda-thin-k-tile")
    wide = _diagnose(make_task(tmp_path, "wide", TASK_MM, MM.replace("KSTEP", "64")))
    symptoms = {f.evidence.get("symptom") for t in wide.tiers if t.tier == 3 for f in t.findings}
    assert "thin-k-dot" not in symptoms


STREAMED_ROW = '''
import triton, triton.language as tl

@triton.jit
def row_kernel(s_ptr, out_ptr, S, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    q = pid % S
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, BOUND, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(s_ptr + pid * S + cols, mask=cols < S, other=0.0)
        x = tl.where(cols <= q, x, FILL)
        acc += tl.exp(x)
    tl.store(out_ptr + pid, tl.sum(acc, 0))
'''


@pytest.mark.parametrize("fill", ['float("-inf")', '-float("inf")', "-1e30"])
def test_a_streamed_row_cut_by_position_is_seen_however_the_fill_is_spelled(fill: str) -> None:
    cards = _cards(STREAMED_ROW.replace("BOUND", "S").replace("FILL", fill))
    assert "common-causal-full-scan" in cards  # the loop reads past the diagonal


def test_a_streamed_row_whose_loop_stops_at_the_diagonal_is_left_alone() -> None:
    cards = _cards(STREAMED_ROW.replace("BOUND", "q + 1").replace("FILL", 'float("-inf")'))
    assert not {"common-causal-full-scan", "common-mask-after-load"} & set(cards)


TASK_NOISE = '''
import torch
META = {"name": "t", "sizes": {"small": {"N": 8192}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    return (torch.randn(8192, generator=torch.Generator().manual_seed(seed)),)
def reference(x):
    return x
'''

NOISE = '''
import torch, triton, triton.language as tl

@triton.jit
def noise_kernel(x_ptr, out_ptr, n, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, x + 0.0 * tl.randn(seed, offs), mask=offs < n)

def run(x):
    out = torch.empty_like(x)
    noise_kernel[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), 7, BLOCK=1024)
    return out
'''


@pytest.mark.slow
def test_the_local_array_of_sin_and_cos_range_reduction_is_not_a_register_spill(tmp_path) -> None:
    """tl.randn's Box-Muller calls libdevice sin and cos, whose Payne-Hanek slow path keeps a
    local array: local-memory ops with 0 B spilled, which the ladder concluded as spills."""
    d = _diagnose(make_task(tmp_path, "noise", TASK_NOISE, NOISE))
    symptoms = {f.evidence.get("symptom") for t in d.tiers if t.tier == 3 for f in t.findings}
    assert "register-spills" not in symptoms
    assert d.ranking[0]["rewrite_family"] == "draw-four-per-philox"


TASK_COPY = '''
import torch
META = {"name": "t", "sizes": {"small": {"N": 8192}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    return (torch.randn(8192, generator=torch.Generator().manual_seed(seed)),)
def reference(x):
    return x * 2
'''

ZEROED_WIDE = '''
import torch, triton, triton.language as tl

@triton.jit
def twice_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)

def run(x):
    out = torch.zeros_like(x)
    twice_kernel[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)
    return out
'''


@pytest.mark.slow
def test_a_weak_hypothesis_the_ir_confirms_does_not_outrank_certain_work_the_ir_cannot_show(tmp_path) -> None:
    """An int64 index (0.2, confirmed by the TTIR) beside a zero fill of an output every element
    of which is stored (0.7, host work no IR shows): the fill leads, the index does not conclude."""
    d = _diagnose(make_task(tmp_path, "zeroed", TASK_COPY, ZEROED_WIDE))
    assert d.conclusion is None or d.conclusion.rewrite_family != "int32-indexing"
    assert d.ranking[0]["rewrite_family"] == "allocate-empty-output"


FP64_HELPER = '''
import torch, triton, triton.language as tl

@triton.jit
def _log_sigmoid(x):
    xd = x.to(tl.float64)
    return tl.minimum(xd, 0.0) - tl.log(1.0 + tl.exp(-tl.abs(xd)))

@triton.jit
def gate_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, _log_sigmoid(x).to(tl.float32), mask=offs < n)

def run(x):
    out = torch.empty_like(x)
    gate_kernel[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)
    return out
'''

TASK_LOGSIG = TASK_COPY.replace("return x * 2", "return torch.nn.functional.logsigmoid(x)")


@pytest.mark.slow
def test_fp64_math_in_a_jit_helper_is_an_ir_symptom_that_confirms_it_in_the_calling_kernel(tmp_path) -> None:
    """Found on round 7 (2026-12-02): fp64 exp/log inside a @triton.jit helper. The TTGIR shows
    the fp64 arithmetic under the launched kernel's name (the helper is inlined), so tier 3 must
    name it on its own (no spills needed) and count it as confirming the helper's tier-1
    hypothesis; before, a weak int64-index confirmation in the same kernel was the answer."""
    d = _diagnose(make_task(tmp_path, "logsig", TASK_LOGSIG, FP64_HELPER))
    symptoms = {f.evidence.get("symptom") for t in d.tiers if t.tier == 3 for f in t.findings}
    assert "fp64-arith" in symptoms
    assert d.verdict == "concluded" and d.conclusion.rewrite_family == "lower-precision-math"


TWO_STAGE = '''
import torch, triton, triton.language as tl

@triton.jit
def partial_kernel(x_ptr, part_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(part_ptr + tl.program_id(0), tl.sum(tl.load(x_ptr + offs, mask=offs < n, other=0.0), axis=0))

@triton.jit
def finish_kernel(part_ptr, out_ptr, P, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, P, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(part_ptr + offs, mask=offs < P, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0))

@triton.jit
def scale_kernel(y_ptr, out_ptr, n, factor, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(y_ptr + offs, mask=offs < n) * factor, mask=offs < n)

def run(x, y):
    n = x.numel()
    P = triton.cdiv(n, 1024)
    part = torch.empty((P,), device=x.device, dtype=torch.float32)
    partial_kernel[(P,)](x, part, n, BLOCK=1024)
    total = torch.empty((1,), device=x.device, dtype=torch.float32)
    finish_kernel[(1,)](part, total, P, BLOCK=1024)
    out = torch.empty_like(y)
    scale_kernel[(P,)](y, out, n, 1.0 / total.item(), BLOCK=1024)
    return out
'''

TASK_NORMALISE = '''
import torch
META = {"name": "t", "sizes": {"small": {"N": 8192}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return torch.rand(8192, generator=g) + 0.5, torch.randn(8192, generator=g)
def reference(x, y):
    return y / x.sum()
'''


@pytest.mark.slow
def test_a_host_read_back_between_launches_leads_over_the_two_stage_reduction_that_makes_it(tmp_path) -> None:
    """Found on round 7 (2026-12-02): a launcher sums into a per-program partials table, finishes
    with one program and reads the total back with .item() before the next launch. The partials
    hand-over is the reduction's algorithm and the one-program finish makes a value for the host:
    neither is the cost (both used to outrank it); the read-back that drains the queue is."""
    d = _diagnose(make_task(tmp_path, "normalise", TASK_NORMALISE, TWO_STAGE))
    symptoms = {f.evidence.get("symptom") for t in d.tiers if t.tier == 3 for f in t.findings}
    assert "intermediate-buffer" not in symptoms and "grid-underfill" not in symptoms
    assert d.ranking[0]["rewrite_family"] == "avoid-host-sync"
    cards = {f.card_id for f in triage(TWO_STAGE, "k.py", "cuda").findings}
    assert "common-unfused-launches" not in cards and "common-host-sync" in cards


ROW_INTERMEDIATE = '''
import torch, triton, triton.language as tl

@triton.jit
def gate_kernel(x_ptr, g_ptr, H, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + tl.program_id(0) * H + cols, mask=cols < H, other=0.0)
    tl.store(g_ptr + tl.program_id(0) * H + cols, x * tl.sigmoid(x), mask=cols < H)

@triton.jit
def norm_kernel(g_ptr, y_ptr, H, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    g = tl.load(g_ptr + tl.program_id(0) * H + cols, mask=cols < H, other=0.0)
    tl.store(y_ptr + tl.program_id(0) * H + cols, g / tl.sum(g * g, axis=0), mask=cols < H)

def run(x):
    T, H = x.shape
    g = torch.empty((T, H), device=x.device, dtype=torch.float32)
    gate_kernel[(T,)](x, g, H, BLOCK=triton.next_power_of_2(H))
    y = torch.empty_like(x)
    norm_kernel[(T,)](g, y, H, BLOCK=triton.next_power_of_2(H))
    return y
'''


def test_a_row_per_program_intermediate_is_a_missed_fusion_not_a_partials_table() -> None:
    """Found on a round-8 development case (2026-12-02): a [T, H] buffer written one row per
    program by an elementwise kernel launched over (T,) was taken for a per-program partials
    table (its leading dimension is the grid), so neither tier 1 nor tier 3 named the unfused
    launches. A partials table is written by a kernel that reduces."""
    import ast

    from diagnose.triage.detectors.launch import partials_params
    from diagnose.triage.detectors.model import build_model

    def partials(src: str) -> frozenset:
        return partials_params(build_model(src, "k.py", ast.parse(src)))

    assert partials(ROW_INTERMEDIATE) == frozenset()
    assert ("partial_kernel", "part_ptr") in partials(TWO_STAGE)
    assert "common-unfused-launches" in {f.card_id for f in triage(ROW_INTERMEDIATE, "k.py", "cuda").findings}
