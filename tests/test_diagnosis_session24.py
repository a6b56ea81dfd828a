"""Session 24's general rules. Tier 2 reads a compute-bound fp32 kernel against the tf32 matmul
rate and names the dot's precision (lower-precision-dot); a kernel with no tl.dot at all (a
Monte-Carlo or compositing loop whose counted flops are FMAs) gives that family nothing to act
on, so once tier 3 has compiled every launched kernel without finding a dot, the reading counts
for less than a source idiom about the real cost."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from diagnose.evidence import Finding, TierResult
from diagnose.ladder import Options, make_context, tier3
from diagnose.target import resolve_target
from diagnose.weigh import rank
from tests.test_ladder import TASK_1D, TASK_2D, VADD_RUNTIME_STRIDE, make_task

MATMUL = '''
import torch, triton, triton.language as tl

@triton.jit
def mm_kernel(x_ptr, y_ptr, M: tl.constexpr, N: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
    tl.store(y_ptr + rm[:, None] * N + rn[None, :], tl.dot(x, x, input_precision="ieee"))

def run(x):
    y = torch.empty_like(x)
    mm_kernel[(1,)](x, y, M=64, N=64)
    return y
'''


def _precision_reading() -> Finding:
    """Tier 2's reading of a compute-bound fp32 kernel, as profiling.rules words it."""
    return Finding(2, "roofline", "cuda-fp32-dot", "lower-precision-dot",
                   "size large (float32): compute-bound at 2% of the measured 363 TFLOP/s tf32 "
                   "matmul rate", 0.75, {}, {"hotspot": True})


def _idiom() -> Finding:
    return Finding(1, "pattern", "common-rand-per-element", "draw-four-per-philox",
                   "tl.randn runs one Philox evaluation per element", 0.7, {}, {})


def _climb_to_ir(folder: Path):
    ctx = make_context(resolve_target(str(folder)), "cuda", Options(size="small"), open_kb=None)
    ctx.evidence = [TierResult(1, "pattern triage", [_idiom()]),
                    TierResult(2, "profiling", [_precision_reading()])]
    ctx.evidence.append(tier3(ctx))
    ctx.tier(1).findings.append(_idiom())  # tier 3 reads the source again after the capture
    return ctx


@pytest.fixture(scope="module")
def tasks(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("session24")
    make_task(root, "vadd", TASK_1D, VADD_RUNTIME_STRIDE)
    make_task(root, "matmul", TASK_2D, MATMUL)
    return root


def test_a_precision_reading_of_a_kernel_without_a_dot_ranks_below_the_source_idiom(tasks):
    ctx = _climb_to_ir(tasks / "vadd")
    reading = ctx.tier(2).findings[0]
    assert "none holds a tl.dot" in reading.evidence["not_in_ir"]
    order = [c.rewrite_family for c in rank(ctx.evidence)]
    assert order.index("draw-four-per-philox") < order.index("lower-precision-dot")


def test_a_precision_reading_of_a_kernel_with_a_dot_keeps_its_weight(tasks):
    ctx = _climb_to_ir(tasks / "matmul")
    assert not ctx.tier(3).skipped, ctx.tier(3).skip_reason
    reading = ctx.tier(2).findings[0]
    assert "not_in_ir" not in reading.evidence
    order = [c.rewrite_family for c in rank(ctx.evidence)]
    assert order.index("lower-precision-dot") < order.index("draw-four-per-philox")


SUM_ATOMICS = '''
import torch, triton, triton.language as tl

@triton.jit
def total_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.atomic_add(out_ptr + offs * 0, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)

def run(x, y):
    out = torch.zeros(1, device=x.device)
    total_kernel[(triton.cdiv(x.numel(), 256),)](x, out, x.numel(), BLOCK=256)
    return out
'''


def test_an_ir_symptom_of_a_kernel_without_a_dot_names_no_dot_idiom(tmp_path):
    folder = make_task(tmp_path, "atomics", TASK_1D, SUM_ATOMICS)
    ctx = make_context(resolve_target(str(folder)), "cuda", Options(size="small"), open_kb=None)
    ctx.evidence = [TierResult(1, "pattern triage", [])]
    ir = tier3(ctx)
    atomics = next(f for f in ir.findings if f.evidence.get("symptom") == "global-atomics")
    assert "cuda-split-k-atomics" not in atomics.evidence["explains_cards"]
    assert "drop-split-k" not in atomics.evidence["explains_families"]
    assert "common-scatter-atomics" in atomics.evidence["explains_cards"] or atomics.card_id


SHIFTED_SAMPLE = '''
import triton
import triton.language as tl

@triton.jit
def shifted_sample(img, shift, out, H, W, BLOCK: tl.constexpr):
    for start in range(tl.program_id(0) * BLOCK, H * W, tl.num_programs(0) * BLOCK):
        pix = start + tl.arange(0, BLOCK)
        ok = pix < H * W
        row = pix // W
        col = pix % W
        dy = tl.load(shift + pix, mask=ok, other=0)
        src = (row + dy) * W + col
        tl.store(out + pix, tl.load(img + src, mask=ok, other=0.0), mask=ok)
'''

PLAIN_DECODE = '''
import triton
import triton.language as tl

@triton.jit
def transpose_flat(img, out, H, W, BLOCK: tl.constexpr):
    for start in range(tl.program_id(0) * BLOCK, H * W, tl.num_programs(0) * BLOCK):
        pix = start + tl.arange(0, BLOCK)
        ok = pix < H * W
        row = pix // W
        col = pix % W
        tl.store(out + col * H + row, tl.load(img + pix, mask=ok, other=0.0), mask=ok)
'''


def _confidence(source: str, card: str) -> float:
    from diagnose.triage import triage
    found = [f.confidence for f in triage(source, "k.py", "ascend").findings if f.card_id == card]
    return max(found, default=0.0)


def test_on_ascend_a_div_mod_feeding_only_a_gather_ranks_below_the_gather():
    source = textwrap.dedent(SHIFTED_SAMPLE)
    assert _confidence(source, "ascend-div-mod-unstructured") == 0.5
    assert _confidence(source, "ascend-discrete-gather") > 0.5


def test_on_ascend_a_div_mod_feeding_a_plain_access_keeps_its_weight():
    assert _confidence(textwrap.dedent(PLAIN_DECODE), "ascend-div-mod-unstructured") >= 0.7
