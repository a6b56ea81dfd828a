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
