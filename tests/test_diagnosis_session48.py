"""Session 48: atomics confirmed by the IR inside a program that owns one item in scalar code,
and a stencil over the previous launch's output, which no fusion saves."""

from __future__ import annotations

import ast

import pytest

from diagnose.triage import triage
from diagnose.triage.detectors.launch import stencil_steps
from diagnose.triage.detectors.model import build_model
from tests.test_diagnosis_masks_tiles import _diagnose, make_task

TASK = '''
import torch
META = {"name": "t", "sizes": {"small": {"N": 4096, "G": 64}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(4096, generator=g) * 62.0, torch.rand(4096, generator=g), 64)
def reference(x, w, nodes):
    i = x.floor().long()
    f = x - i
    out = torch.zeros(nodes)
    out.index_add_(0, i, (1 - f) * w)
    out.index_add_(0, i + 1, f * w)
    return out
'''

# linear deposition of each particle's weight onto its two grid nodes
ONE_PER_PROGRAM = '''
import torch, triton, triton.language as tl

@triton.jit
def deposit(x_ptr, w_ptr, out_ptr, n):
    p = tl.program_id(0)
    x = tl.load(x_ptr + p)
    w = tl.load(w_ptr + p)
    i = x.to(tl.int32)
    f = x - i.to(tl.float32)
    tl.atomic_add(out_ptr + i, (1.0 - f) * w, sem="relaxed")
    tl.atomic_add(out_ptr + i + 1, f * w, sem="relaxed")

def run(x, w, nodes):
    n = x.shape[0]
    out = torch.zeros(nodes, dtype=torch.float32)
    deposit[(n,)](x, w, out, n)
    return out
'''

BLOCK_PER_PROGRAM = '''
import torch, triton, triton.language as tl

@triton.jit
def deposit(x_ptr, w_ptr, out_ptr, n, BLOCK: tl.constexpr):
    p = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = p < n
    x = tl.load(x_ptr + p, mask=m, other=0.0)
    w = tl.load(w_ptr + p, mask=m, other=0.0)
    i = x.to(tl.int32)
    f = x - i.to(tl.float32)
    tl.atomic_add(out_ptr + i, (1.0 - f) * w, mask=m, sem="relaxed")
    tl.atomic_add(out_ptr + i + 1, f * w, mask=m, sem="relaxed")

def run(x, w, nodes):
    n = x.shape[0]
    out = torch.zeros(nodes, dtype=torch.float32)
    deposit[(triton.cdiv(n, 256),)](x, w, out, n, BLOCK=256)
    return out
'''


@pytest.mark.slow
def test_atomics_in_a_one_item_program_are_its_shape_and_tiling_the_items_comes_first(tmp_path):
    d = _diagnose(make_task(tmp_path, "one", TASK, ONE_PER_PROGRAM))
    assert d.verdict == "concluded" and d.concluded_tier == 3
    assert d.conclusion.rewrite_family == "multi-row-programs"
    assert "nothing can be aggregated" in d.reason
    assert d.ranking[0]["rewrite_family"] == "multi-row-programs"
    atomics = {f.rewrite_family for t in d.tiers if t.tier == 3 for f in t.findings}
    assert atomics  # the IR did see the atomics; the answer says what they are a symptom of


@pytest.mark.slow
def test_atomics_over_a_block_of_items_keep_their_own_answer(tmp_path):
    d = _diagnose(make_task(tmp_path, "block", TASK, BLOCK_PER_PROGRAM))
    assert "nothing can be aggregated" not in (d.reason or "")
    assert d.conclusion is None or d.conclusion.rewrite_family != "multi-row-programs"


# two passes of a separable blur: the second reads the first's output at shifted rows
TWO_PASS = '''
import torch, triton, triton.language as tl

@triton.jit
def rows_pass(src, dst, H, W, R: tl.constexpr, BW: tl.constexpr):
    r = tl.program_id(0)
    c = tl.arange(0, BW)
    acc = tl.zeros([BW], dtype=tl.float32)
    for k in range(2 * R + 1):
        cc = c + k - R
        acc += tl.load(src + r * W + cc, mask=(cc >= 0) & (cc < W), other=0.0)
    tl.store(dst + r * W + c, acc, mask=c < W)

@triton.jit
def cols_pass(src, dst, H, W, R: tl.constexpr, BW: tl.constexpr):
    r = tl.program_id(0)
    c = tl.arange(0, BW)
    acc = tl.zeros([BW], dtype=tl.float32)
    for k in range(2 * R + 1):
        rr = r + (k - R)
        acc += tl.load(src + rr * W + c, mask=(rr >= 0) & (rr < H) & (c < W), other=0.0)
    tl.store(dst + r * W + c, acc, mask=c < W)

def run(x):
    H, W = x.shape
    tmp = torch.empty_like(x)
    out = torch.empty_like(x)
    rows_pass[(H,)](x, tmp, H, W, R=2, BW=triton.next_power_of_2(W))
    cols_pass[(H,)](tmp, out, H, W, R=2, BW=triton.next_power_of_2(W))
    return out
'''


def _multi_launch(source: str) -> list:
    return [f for f in triage(source, "blur.py", "cuda").findings
            if f.evidence.get("detector") == "multi-launch"]


def test_a_stencil_over_the_first_pass_output_is_no_fusion_left_undone():
    for spelling in (TWO_PASS, TWO_PASS.replace("rr = r + (k - R)", "rr = r + k - R"),
                     TWO_PASS.replace("rr = r + (k - R)", "rr = r - k")):  # centred, or reaching back
        assert _multi_launch(spelling) == []
        module = build_model(spelling, "blur.py", ast.parse(spelling))
        assert stencil_steps(module) == {("rows_pass", "cols_pass")}


def test_a_pointwise_second_pass_or_a_tap_that_steps_through_slabs_is_still_a_round_trip():
    # the same second pass reading the intermediate at its own position only
    pointwise = TWO_PASS.replace("rr = r + (k - R)", "rr = r")
    assert [f.rewrite_family for f in _multi_launch(pointwise)] == ["fuse-launches"]
    # a tap only added to the position (a split's slab, a record's field) is no neighbour
    slabs = TWO_PASS.replace("rr = r + (k - R)", "rr = r * (2 * R + 1) + k")
    assert [f.rewrite_family for f in _multi_launch(slabs)] == ["fuse-launches"]
    assert stencil_steps(build_model(slabs, "blur.py", ast.parse(slabs))) == frozenset()
