"""Session 36's general readings (issue 12), from round 46's first run.

A pairwise test counted as numbers (`tl.sum(ok.to(tl.int32), 1)`) is the same mask a tl.where
applies: when the trace sees it keep no lane on most of a loop's steps, those steps' tiles were
loaded and computed for nothing, a loop bound to narrow rather than a tile to shrink. fp64 math
that only adds, multiplies and compares (sums kept in double) runs at half the fp32 rate on an
H100-class GPU: a cost only where the kernel is bound by its arithmetic, so tier 1 weighs it low
and tier 3 does not let the IR's fp64 ops confirm it as the kernel's cost."""

from __future__ import annotations

from diagnose.evidence import Finding, TierResult
from diagnose.ladder import Context, _cheap_fp64
from diagnose.triage import triage
from tests.test_diagnosis_session26 import traced

HEADER = "import torch, triton, triton.language as tl\n"

SORTED_TASK = '''
import torch
META = {"sizes": {"small": {"n": 4096}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    x = torch.sort(torch.rand(4096, generator=torch.Generator().manual_seed(seed)) * 1000.0).values
    return (x.to(device),)
def reference(x):
    return ((x[None, :] - x[:, None]).abs() <= 1.0).sum(1).to(torch.int32)
'''

# every program sweeps every tile of a sorted array for the few neighbours inside a window
WINDOW_COUNT = HEADER + '''

@triton.jit
def window_kernel(x_ptr, out_ptr, n, cut, BLOCK_I: tl.constexpr, BLOCK_J: tl.constexpr):
    i = tl.program_id(0) * BLOCK_I + tl.arange(0, BLOCK_I)
    xi = tl.load(x_ptr + i, mask=i < n, other=0.0)
    count = tl.zeros([BLOCK_I], dtype=tl.int32)
    for j0 in range(0, n, BLOCK_J):
        j = j0 + tl.arange(0, BLOCK_J)
        xj = tl.load(x_ptr + j, mask=j < n, other=0.0)
        ok = (tl.abs(xj[None, :] - xi[:, None]) <= cut) & (j[None, :] < n)
        count += tl.sum(ok.to(tl.int32), axis=1)
    tl.store(out_ptr + i, count, mask=i < n)


def run(x):
    n = x.shape[0]
    out = torch.empty(n, dtype=torch.int32, device=x.device)
    window_kernel[(triton.cdiv(n, 64),)](x, out, n, 1.0, BLOCK_I=64, BLOCK_J=64)
    return out
'''


def _skips(tmp_path, name: str, source: str):
    return [f for f in traced(tmp_path, name, SORTED_TASK, source) if f.rewrite_family == "skip-masked-tiles"]


def test_a_window_test_counted_as_numbers_that_keeps_no_lane_on_most_steps_is_a_loop_to_narrow(tmp_path):
    [skip] = _skips(tmp_path, "window", WINDOW_COUNT)
    assert "condition turned into numbers" in skip.message
    assert skip.confidence >= 0.3


def test_a_wide_window_that_keeps_lanes_on_every_step_is_no_loop_to_narrow(tmp_path):
    # a cut wider than the data's span: every step keeps lanes, nothing was computed for nothing
    assert not _skips(tmp_path, "wide", WINDOW_COUNT.replace("n, 1.0, BLOCK_I", "n, 5000.0, BLOCK_I"))


SUMS_IN_DOUBLE = HEADER + '''

@triton.jit
def add_kernel(x_ptr, w_ptr, sums_ptr, n, BLOCK: tl.constexpr):
    p = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = p < n
    x = tl.load(x_ptr + p, mask=ok, other=0.0)
    w = tl.load(w_ptr + p, mask=ok, other=0.0)
    old = tl.load(sums_ptr + p, mask=ok, other=0.0)
    tl.store(sums_ptr + p, old + (w * x).to(tl.float64), mask=ok)
'''


def _fp64(source: str):
    return [f for f in triage(source, "k.py", "cuda").findings if f.card_id == "cuda-fp64-math"]


def test_fp64_sums_weigh_less_than_fp64_transcendentals():
    [sums] = _fp64(SUMS_IN_DOUBLE)
    [costly] = _fp64(SUMS_IN_DOUBLE.replace("old + (w * x).to(tl.float64)", "old + tl.exp((w * x).to(tl.float64))"))
    [divided] = _fp64(SUMS_IN_DOUBLE.replace("old + (w * x).to(tl.float64)", "old / (w * x).to(tl.float64)"))
    assert sums.evidence["facts"]["fp64_costly"] is False and "only adds" in sums.message
    assert costly.evidence["facts"]["fp64_costly"] is True
    assert divided.evidence["facts"]["fp64_costly"] is True
    assert sums.confidence < costly.confidence == divided.confidence


def _ir_fp64(kernel: str) -> Finding:
    return Finding(tier=3, kind="ir-symptom", card_id="cuda-fp64-math", rewrite_family="lower-precision-math",
                   message="fp64 ops", confidence=0.9, location={"function": kernel},
                   evidence={"symptom": "fp64-arith", "weight": 3})


def test_the_ir_fp64_symptom_of_a_kernel_tier_1_read_as_sums_only_weighs_as_a_cheap_one():
    ctx = Context.__new__(Context)
    ctx.evidence, ctx.trace = [triage(SUMS_IN_DOUBLE, "k.py", "cuda")], None
    ir = TierResult(3, "IR attribution", [_ir_fp64("add_kernel"), _ir_fp64("other_kernel")])
    _cheap_fp64(ctx, ir)
    cheap, kept = ir.findings
    assert cheap.confidence == 0.45 and cheap.evidence["weight"] == 1 and "cheap_fp64" in cheap.evidence
    assert kept.confidence == 0.9 and "cheap_fp64" not in kept.evidence  # no reading, no trace: kept


# keys read as K^T ([D, BL], the sequence strided) and only reduced over D; the reduced scores then
# weigh a value tile whose last axis is the contiguous one
REDUCED_THEN_COMBINED = HEADER + '''

@triton.jit
def attend(q_ptr, k_ptr, v_ptr, out_ptr, B, D: tl.constexpr, BL: tl.constexpr):
    t = tl.arange(0, BL)
    d = tl.arange(0, D)
    for b in range(tl.program_id(0), B, tl.num_programs(0)):
        q = tl.load(q_ptr + b * D + d)
        kt = tl.load(k_ptr + b * BL * D + d[:, None] + t[None, :] * D)
        s = tl.sum(q[:, None] * kt, axis=0)
        p = tl.exp(s - tl.max(s, axis=0))
        v = tl.load(v_ptr + b * BL * D + t[:, None] * D + d[None, :])
        tl.store(out_ptr + b * D + d, tl.sum(p[:, None] * v, axis=0))
'''


def _strided_readings(source: str) -> dict[str, float]:
    return {f.card_id: f.confidence for f in triage(source, "k.py", "ascend").findings
            if f.card_id in ("ascend-transposed-tile", "ascend-strided-fast-axis")}


def test_a_transposed_tile_reduced_to_a_vector_is_walked_the_contiguous_way_not_transposed():
    readings = _strided_readings(REDUCED_THEN_COMBINED)
    assert readings["ascend-strided-fast-axis"] > readings["ascend-transposed-tile"]


def test_a_transposed_tile_combined_whole_with_a_contiguous_tile_is_transposed_on_chip():
    # the [D, BL] key tile itself meets the value tile (read as [D, BL] from a [BL, D] layout
    # would be strided too, so the value tile is read [BL, D] and the keys must be turned)
    combined = REDUCED_THEN_COMBINED.replace(
        "tl.store(out_ptr + b * D + d, tl.sum(p[:, None] * v, axis=0))",
        "tl.store(out_ptr + b * D + d, tl.sum(p[:, None] * v * tl.trans(kt), axis=0))")
    readings = _strided_readings(combined)
    assert readings["ascend-transposed-tile"] >= readings.get("ascend-strided-fast-axis", 0.0)


EVENT_TASK = '''
import torch
META = {"sizes": {"small": {"n": 512}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    return (torch.rand(512, generator=torch.Generator().manual_seed(seed)).to(device),)
def reference(v):
    for _ in range(16):
        v = v + 0.3 * (1.2 - v)
        v = torch.where(v >= 1.0, torch.full_like(v, -100.0), v)
    return v
'''

# an integrate-and-fire update: each step integrates every lane, then resets the few that crossed
# the threshold; after the first steps no lane crosses again, and every step still does its work
RESET_EVENT = HEADER + '''

@triton.jit
def lif_kernel(v_ptr, out_ptr, n, STEPS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    v = tl.load(v_ptr + offs, mask=ok, other=0.0)
    for _ in range(STEPS):
        v = v + 0.3 * (1.2 - v)
        v = tl.where(v >= 1.0, -100.0, v)
    tl.store(out_ptr + offs, v, mask=ok)


def run(v):
    out = torch.empty_like(v)
    lif_kernel[(triton.cdiv(v.shape[0], 128),)](v, out, v.shape[0], STEPS=16, BLOCK=128)
    return out
'''

# the same loop as a liveness mask: lanes that crossed stop and keep their old value
RETIRED = RESET_EVENT.replace(
    """        v = v + 0.3 * (1.2 - v)
        v = tl.where(v >= 1.0, -100.0, v)""",
    """        live = v < 1.0
        v = tl.where(live, v + 0.3 * (1.2 - v), v)""")


def _retired(tmp_path, name: str, source: str):
    return [f for f in traced(tmp_path, name, EVENT_TASK, source) if f.card_id == "common-retired-lanes-loop"]


def test_a_reset_on_the_value_the_step_computed_is_an_event_not_retired_lanes(tmp_path):
    assert not _retired(tmp_path, "reset", RESET_EVENT)


def test_lanes_that_keep_their_old_value_once_done_are_retired_lanes(tmp_path):
    [retired] = _retired(tmp_path, "retired", RETIRED)
    assert retired.rewrite_family == "skip-masked-tiles"
