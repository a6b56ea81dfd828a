"""Session 20's general rules: many runtime divisions per element are issue-bound work of their
own, and a symptom seen at several lines is explained by the cause seen at most of them. Each
rule has a twin it must leave alone; the ladder runs on real Triton compiles for sm_90."""

from __future__ import annotations

import pytest

from diagnose.triage import triage
from tests.test_ladder import climb, make_task

# A flat index over a [B, C, T, H, W] output split into five coordinates by runtime sizes; the
# per-channel statistics are gathered by `c`, the input read channels-last (stride C).
DECODE = '''
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, mean_ptr, out_ptr, total, T, H, W, C, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < total
    w = offs % W
    h = (offs // W) % H
    t = (offs // (W * H)) % T
    c = (offs // (W * H * T)) % C
    b = offs // (W * H * T * C)
    mean = tl.load(mean_ptr + c, mask=m, other=0.0)
    v = tl.load(x_ptr + (((b * T + t) * H + h) * W + w) * C + c, mask=m, other=0.0)
    tl.store(out_ptr + offs, v - mean, mask=m)
'''


def _div_mod(source: str) -> list:
    return [f for f in triage(source, "k.py", "cuda").findings if f.rewrite_family == "avoid-div-mod-index"]


def test_many_runtime_divisions_per_element_raise_the_decode_to_issue_bound():
    found = _div_mod(DECODE)
    lead = [f for f in found if f.confidence >= 0.8]
    assert len(lead) == 1 and "divides each element's index by 7 runtime values" in lead[0].message
    # an expression of runtime sizes is a runtime divisor too
    assert all("(a runtime value)" in f.message for f in found)


def test_divisions_by_constexpr_sizes_or_a_few_runtime_ones_stay_where_they_were():
    constexpr = DECODE.replace("T, H, W, C, BLOCK", "T: tl.constexpr, H: tl.constexpr, W: tl.constexpr, "
                                                    "C: tl.constexpr, BLOCK")
    assert max(f.confidence for f in _div_mod(constexpr)) < 0.6
    # two coordinates by two runtime sizes (a [rows, cols] decode): the ordinary claim
    two = '''
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, out_ptr, total, R, C, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < total
    r = offs // C
    c = offs % C
    tl.store(out_ptr + offs, tl.load(x_ptr + c * R + r, mask=m), mask=m)
'''
    assert max(f.confidence for f in _div_mod(two)) == 0.7


TASK = '''
import torch
META = {"name": "t", "sizes": {"small": {"N": 0}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(2, 4, 8, 16, 3, generator=g), torch.randn(3, generator=g))
def reference(x, mean):
    return x.permute(0, 4, 1, 2, 3) - mean[None, :, None, None, None]
'''

LAUNCH = '''

def run(x, mean):
    B, T, H, W, C = x.shape
    out = torch.empty((B, C, T, H, W), dtype=x.dtype)
    total = out.numel()
    k[(triton.cdiv(total, 256),)](x, mean, out, total, T, H, W, C, BLOCK=256)
    return out
'''


@pytest.mark.slow
def test_narrow_loads_whose_addresses_all_come_from_a_decode_name_the_decode(tmp_path):
    """The IR's narrow loads are at the gather by `c` and at the channels-last read; the decode
    reaches both, the stride only the second: the decode is the cause that explains more."""
    folder = make_task(tmp_path, "decode", TASK, "import torch\n" + DECODE + LAUNCH)
    d = climb(folder, max_tier=3)
    assert d.conclusion is not None and d.conclusion.rewrite_family == "avoid-div-mod-index"


def test_a_compiler_answer_about_an_instruction_only_symptom_weighs_as_that_symptom():
    from diagnose.evidence import Finding
    from diagnose.ladder import INSTRUCTION_OUTWEIGHS, TRACE_OUTWEIGHS, _outweighs

    def answer(symptom: str) -> Finding:
        return Finding(tier=4, kind="pass-source", card_id="", rewrite_family="int32-indexing",
                       message="", confidence=0.7, evidence={"symptom_asked": symptom})
    assert _outweighs(answer("int64-index-arith")) == INSTRUCTION_OUTWEIGHS
    assert _outweighs(answer("dot-without-wgmma")) == TRACE_OUTWEIGHS


def test_a_matvec_per_program_on_the_npu_names_the_cube():
    src = '''
import triton
import triton.language as tl


@triton.jit
def k(q_ptr, kv_ptr, out_ptr, D: tl.constexpr, N: tl.constexpr):
    head = tl.program_id(0)
    d = tl.arange(0, D)
    q = tl.load(q_ptr + head * D + d)
    kv = tl.load(kv_ptr + tl.arange(0, N)[:, None] * D + d[None, :])
    tl.store(out_ptr + head * N + tl.arange(0, N), tl.sum(q[None, :] * kv, axis=1))
'''
    found = [f for f in triage(src, "k.py", "ascend").findings if f.rewrite_family == "tile-rows-into-dot"]
    assert [f.card_id for f in found] == ["ascend-matvec-per-row"] and "the cube" in found[0].message
    cuda = [f for f in triage(src, "k.py", "cuda").findings if f.rewrite_family == "tile-rows-into-dot"]
    assert [f.card_id for f in cuda] == ["cuda-matvec-per-row"]


PREFIX_TASK = '''
import torch
META = {"name": "t", "sizes": {"small": {"N": 0}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(256 * 16 * 256, generator=g),)
def reference(x):
    return None
'''

# A statistics launch and a mask launch both read x (fusing them saves one read of x), while
# each of the mask launch's items re-reads every tile before its own: most of the traffic.
TWO_LAUNCHES = '''
import torch, triton, triton.language as tl


@triton.jit
def _tile(ptr, row, t, TILE: tl.constexpr):
    return tl.load(ptr + row * 16 * TILE + t * TILE + tl.arange(0, TILE))


@triton.jit
def totals(x_ptr, tot_ptr, TILE: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([TILE], dtype=tl.float32)
    for t in range(0, 16):
        acc += _tile(x_ptr, row, t, TILE)
    tl.store(tot_ptr + row, tl.sum(acc, axis=0))


@triton.jit
def mask(x_ptr, tot_ptr, out_ptr, TILE: tl.constexpr):
    for item in range(tl.program_id(0), 256 * 16, tl.num_programs(0)):
        row = item // 16
        t = item % 16
        mass = tl.zeros([TILE], dtype=tl.float32)
        for j in range(0, t):
            mass += _tile(x_ptr, row, j, TILE)
        own = _tile(x_ptr, row, t, TILE)
        before = tl.sum(mass, axis=0) / tl.load(tot_ptr + row)
        tl.store(out_ptr + row * 16 * TILE + t * TILE + tl.arange(0, TILE), tl.where(before < 0.5, own, 0.0))


def run(x):
    tot = torch.empty(256, dtype=x.dtype)
    out = torch.empty_like(x)
    totals[(256,)](x, tot, TILE=256)
    mask[(264,)](x, tot, out, TILE=256)
    return out
'''


@pytest.mark.slow
def test_a_confirmed_fusion_saving_little_gives_way_to_the_rereads_the_trace_measured(tmp_path, monkeypatch):
    """The IR's host view confirms fusing the two launches (x read twice), but that saves one
    read of x against the mask launch's re-reads of the earlier tiles, several times more: the
    answer is the measured re-reads, in the form the source idiom names (carry the prefix)."""
    monkeypatch.setenv("PASSWISE_CAPTURE_CACHE", str(tmp_path / "cache"))
    folder = make_task(tmp_path, "prefix", PREFIX_TASK, TWO_LAUNCHES)
    d = climb(folder, max_tier=3, trace=True)
    assert d.conclusion is not None and d.conclusion.rewrite_family == "carry-running-prefix", d.reason


def test_a_kernel_launched_several_times_is_a_fact_about_that_kernel_only():
    """'cast_kernel is launched 3 times' pins the fact to cast_kernel, so it cannot confirm an
    idiom about how two other kernels hand data to each other; two repeated kernels: no pin."""
    from diagnose.ir.model import IRCapture
    from diagnose.ir.tier import INTERMEDIATE_CARD, LAUNCH_LOOP_CARD, _host_findings

    families = {LAUNCH_LOOP_CARD: "one-launch-over-grid", INTERMEDIATE_CARD: "fuse-launches"}
    one = IRCapture("cuda", "t", "k.py", launch_counts={"cast_kernel": 3, "step_kernel": 1})
    [fact] = _host_findings(one, families)
    assert fact.location["function"] == "cast_kernel"
    two = IRCapture("cuda", "t", "k.py", launch_counts={"cast_kernel": 3, "step_kernel": 2})
    assert _host_findings(two, families)[0].location["function"] is None
