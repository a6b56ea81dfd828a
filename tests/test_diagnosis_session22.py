"""Session 22's general rules. The trace's measure of a serial walk (dependent one-element steps
that outlast the launch's traffic) raises a claim at the walk's line because the claim is about
that cost; a claim that only changes how an access is issued (hints, index width, alignment)
leaves the steps as many as before and is not raised by it."""

from __future__ import annotations

import textwrap

import pytest

from diagnose.ladder import (
    ISSUE_ONLY_FAMILIES,
    MEASURED_WORK_CONFIDENCE,
    Options,
    make_context,
    tier1,
)
from diagnose.target import resolve_target

pytestmark = pytest.mark.xdist_group("trace")

WALK_TASK = '''
import torch

META = {"sizes": {"small": {"R": 4, "L": 2048}, "large": {"R": 4, "L": 2048}}, "dtypes": ["float32"]}


def make_inputs(size, device="cpu", seed=0, dtype=None):
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["R"], s["L"], generator=g)
    perm = torch.stack([torch.randperm(s["L"], generator=g) for _ in range(s["R"])]).to(torch.int32)
    return x.to(device), perm.to(device)


def reference(x, perm):
    return None
'''

# A running log-sum-exp carried backwards through a permuted row, one element per step: the
# row stride is a plain runtime argument (no divisibility hint) and the permuted gather sits on
# the walk's own line.
WALK = '''
import torch
import triton
import triton.language as tl


@triton.jit
def tail_lse(x_ptr, perm_ptr, out_ptr, stride_x, stride_p, L):
    row = tl.program_id(0)
    hi = -float("inf")
    acc = 0.0
    total = 0.0
    for k in range(0, L):
        v = tl.load(x_ptr + row * stride_x + tl.load(perm_ptr + row * stride_p + L - 1 - k))
        top = tl.maximum(hi, v)
        acc = acc * tl.exp(hi - top) + tl.exp(v - top)
        hi = top
        total += tl.log(acc) + hi - v
    tl.store(out_ptr + row, total)


def run(x, perm):
    out = torch.empty(x.shape[0], dtype=torch.float32, device=x.device)
    tail_lse[(x.shape[0],)](x, perm, out, x.stride(0), perm.stride(0), x.shape[1])
    return out
'''


def test_a_walk_measured_by_the_trace_raises_its_scan_claim_not_an_access_hint_at_its_line(tmp_path):
    (tmp_path / "task.py").write_text(textwrap.dedent(WALK_TASK))
    (tmp_path / "walk.py").write_text(textwrap.dedent(WALK))
    ctx = make_context(resolve_target(str(tmp_path), str(tmp_path / "walk.py")), "cuda",
                       Options(max_tier=1, size="small", trace=True))
    found = [f for f in tier1(ctx).findings if f.kind == "pattern"]
    scan = [f for f in found if f.rewrite_family == "use-associative-scan"]
    assert scan and scan[0].confidence >= MEASURED_WORK_CONFIDENCE
    assert "measured_by_trace" in scan[0].evidence
    issue_only = [f for f in found if f.rewrite_family in ISSUE_ONLY_FAMILIES]
    assert issue_only, "the unhinted stride on the walk's line should still be reported"
    for f in issue_only:
        assert "measured_by_trace" not in f.evidence
        assert f.confidence < scan[0].confidence


def _families(src: str, backend: str = "cuda") -> dict[str, float]:
    from diagnose.triage import triage
    out: dict[str, float] = {}
    for f in triage(textwrap.dedent(src), "k.py", backend).findings:
        out[f.card_id] = max(out.get(f.card_id, 0.0), f.confidence)
    return out


# front-to-back blending over a per-tile list: the mask of live lanes only narrows
BLEND = '''
import triton
import triton.language as tl


@triton.jit
def blend(vals, alphas, ids, starts, out, N: tl.constexpr):
    t = tl.program_id(0)
    lanes = tl.arange(0, N)
    trans = tl.full((N,), 1.0, tl.float32)
    acc = tl.zeros((N,), tl.float32)
    live = lanes < N
    lo = tl.load(starts + t)
    hi = tl.load(starts + t + 1)
    LOOP
        g = tl.load(ids + j)
        a = tl.load(alphas + g * N + lanes)
        done = trans * (1.0 - a) < 1e-4
        live = live & ~done
        acc += tl.where(live, a * trans * tl.load(vals + g), 0.0)
        trans = tl.where(live, trans * (1.0 - a), trans)
        STEP
    tl.store(out + t * N + lanes, acc)
'''


def test_a_loop_whose_live_lanes_only_narrow_but_never_stop_it_wastes_its_tail():
    slow = BLEND.replace("LOOP", "for j in range(lo, hi):").replace("STEP", "")
    assert _families(slow).get("common-retired-lanes-loop", 0) >= 0.6
    fixed = (BLEND.replace("LOOP", "j = lo\n    n_live = tl.sum(live.to(tl.int32), axis=0)\n"
                           "    while (j < hi) & (n_live > 0):")
             .replace("STEP", "n_live = tl.sum(live.to(tl.int32), axis=0)\n        j += 1"))
    assert "common-retired-lanes-loop" not in _families(fixed)


WINDOW = '''
import triton
import triton.language as tl


@triton.jit
def box(x, w, y, T, K, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    j = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for k in range(0, K):
        TERM
    tl.store(y + row * T + j, acc, mask=j < T)
'''


def test_overlapping_windows_summed_per_output_are_a_running_prefix_and_filter_taps_are_not():
    plain = WINDOW.replace("TERM", "acc += tl.load(x + row * T + j + k, mask=j + k < T, other=0.0)")
    assert _families(plain).get("common-window-resum", 0) >= 0.6
    # a weighted tap per offset is a convolution: no prefix gives it
    taps = WINDOW.replace("TERM", "acc += tl.load(w + k) * tl.load(x + row * T + j + k, mask=j + k < T, other=0.0)")
    assert "common-window-resum" not in _families(taps)
    # three taps written as a loop are a stencil
    short = plain.replace("range(0, K)", "range(0, 3)")
    assert "common-window-resum" not in _families(short)


TASKS = '''
import triton
import triton.language as tl


@triton.jit
def norm(x, y, L, C, n_items, n_c, n_t, BT: tl.constexpr, BC: tl.constexpr):
    for item in range(tl.program_id(0), n_items, tl.num_programs(0)):
        b = item // (n_c * n_t)
        rest = item % (n_c * n_t)
        tb = rest // n_c
        c = (rest % n_c) * BC + tl.arange(0, BC)
        s = tl.zeros([BT, BC], dtype=tl.float32)
        for t0 in range(0, L, BT):
            t = t0 + tl.arange(0, BT)
            s += tl.load(x + b * L * C + t[:, None] * C + c[None, :], mask=(t < L)[:, None], other=0.0)
        m = tl.sum(s, axis=0) / L
        t = tb * BT + tl.arange(0, BT)
        v = tl.load(x + b * L * C + t[:, None] * C + c[None, :], mask=(t < L)[:, None], other=0.0)
        tl.store(y + b * L * C + t[:, None] * C + c[None, :], v - m[None, :], mask=(t < L)[:, None])
'''


def test_a_pass_every_task_along_one_decoded_coordinate_repeats_is_computed_once():
    found = _families(TASKS, "ascend")
    assert found.get("common-redundant-across-programs", 0) >= 0.7
    # the same tasks without the time-block coordinate: each task's pass is its own
    own = (TASKS.replace("n_c * n_t", "n_c").replace("        tb = rest // n_c\n", "")
           .replace("t = tb * BT + tl.arange(0, BT)", "t = tl.arange(0, BT)"))
    assert "common-redundant-across-programs" not in _families(own, "ascend")


AOS = '''
import triton
import triton.language as tl


@triton.jit
def rgb(src, dst, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    v = tl.load(src + i, mask=m, other=0.0)
    FIELDS
'''


def test_struct_fields_that_together_cover_every_address_are_a_weak_stride_claim():
    all3 = AOS.replace("FIELDS", "tl.store(dst + i * 3, v, mask=m)\n    tl.store(dst + i * 3 + 1, v, mask=m)\n"
                                 "    tl.store(dst + i * 3 + 2, v, mask=m)")
    one = AOS.replace("FIELDS", "tl.store(dst + i * 3, v, mask=m)")
    assert _families(all3)["cuda-strided-fast-axis"] <= 0.35
    assert _families(one)["cuda-strided-fast-axis"] > 0.35


SEGMENT = '''
import triton
import triton.language as tl


@triton.jit
def seg(x, offsets, out):
    p = tl.program_id(0)
    acc = 0.0
    for j in range(START, tl.load(offsets + p + 1)):
        acc += tl.load(x + j)
    tl.store(out + p, acc)
'''


def test_a_segment_of_the_programs_own_is_no_prefix_rescan():
    own = SEGMENT.replace("START", "tl.load(offsets + p)")
    assert "common-prefix-rescan" not in _families(own)
    prefix = SEGMENT.replace("START", "0")
    assert "common-prefix-rescan" in _families(prefix)
