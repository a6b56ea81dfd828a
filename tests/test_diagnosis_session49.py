"""Session 49: the fields of packed records whose width a constexpr names (`p + offs * NREC`)
are read as record fields on Ascend, as a literal width already was."""

from __future__ import annotations

from diagnose.triage import triage

AOS = '''
import torch, triton, triton.language as tl

@triton.jit
def advance(state, out, n, NREC: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    rec = state + offs * NREC
    x = tl.load(rec + 0, mask=m, other=0.0)
    u = tl.load(rec + 1, mask=m, other=0.0)
    w = tl.load(rec + 2, mask=m, other=0.0)
    tl.store(out + offs, x + u * w, mask=m)

def run(state):
    n = state.shape[0]
    out = torch.empty(n, dtype=state.dtype)
    advance[(triton.cdiv(n, 1024),)](state, out, n, NREC=WIDTH, BLOCK=1024)
    return out
'''


def _field_findings(width: int) -> list:
    source = AOS.replace("WIDTH", str(width))
    return [f for f in triage(source, "advance.py", "ascend").findings
            if f.card_id == "ascend-interleaved-fields"]


def test_record_fields_at_a_constexpr_width_are_one_contiguous_run():
    found = _field_findings(8)
    assert found, "three fields of 8-wide records, one stride-8 load each, were not read as record fields"
    assert found[0].rewrite_family == "load-contiguous-transpose-on-chip"
    assert "8-wide records" in found[0].message


def test_a_constexpr_stride_past_a_records_width_is_a_matrix_column_not_fields():
    assert _field_findings(256) == []


# a conjugate-gradient loop: each iteration reduces p.q to one value every program then reads
CG = '''
import torch, triton, triton.language as tl

@triton.jit
def dot(a, b, out, slot, n, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        ok = offs < n
        acc += tl.load(a + offs, mask=ok, other=0.0) * tl.load(b + offs, mask=ok, other=0.0)
    tl.store(out + slot, tl.sum(acc, axis=0))

@triton.jit
def scale(p, q, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    tl.store(q + offs, 2.0 * tl.load(p + offs, mask=ok, other=0.0), mask=ok)

@triton.jit
def update(x, p, q, pq, it, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    alpha = 1.0 / tl.load(pq + it)
    tl.store(x + offs, tl.load(x + offs, mask=ok, other=0.0) + alpha * tl.load(p + offs, mask=ok, other=0.0), mask=ok)
    tl.store(p + offs, tl.load(q + offs, mask=ok, other=0.0) - alpha * tl.load(p + offs, mask=ok, other=0.0), mask=ok)

def run(b, n_iter):
    n = b.shape[0]
    x = torch.zeros_like(b)
    p = b.clone()
    q = torch.empty_like(b)
    pq = torch.empty(n_iter, dtype=b.dtype)
    grid = (triton.cdiv(n, 1024),)
    for it in range(n_iter):
        scale[grid](p, q, n, BLOCK=1024)
        dot[(1,)](p, q, pq, it, n, BLOCK=1024)
        update[grid](x, p, q, pq, it, n, BLOCK=1024)
    return x
'''


def _cg_findings(source: str) -> list:
    return triage(source, "cg.py", "cuda").findings


def test_a_loop_that_waits_on_a_grid_wide_reduction_is_no_launch_to_merge():
    found = _cg_findings(CG)
    loops = [f for f in found if f.rewrite_family == "one-launch-over-grid"]
    assert loops and all(f.confidence <= 0.3 for f in loops)
    assert all("grid-wide" in (f.evidence.get("facts") or {}).get("refuted", "") for f in loops)
    # the reduction between them keeps scale's output from being fused into update
    assert not [f for f in found if f.rewrite_family == "fuse-launches" and f.confidence >= 0.5]
    # and the one-program reduction inside the loop is the small grid it is
    assert any(f.rewrite_family == "split-work-across-programs" and "`dot`" in f.message for f in found)


def test_a_loop_over_independent_slices_is_still_one_launch_over_the_grid():
    # each iteration works on its own slice: no state carried across iterations in whole buffers
    sliced = CG.replace("scale[grid](p, q, n, BLOCK=1024)", "scale[grid](p[it], q[it], n, BLOCK=1024)") \
        .replace("update[grid](x, p, q, pq, it, n, BLOCK=1024)", "update[grid](x[it], p[it], q[it], pq, it, n, BLOCK=1024)") \
        .replace("dot[(1,)](p, q, pq, it, n, BLOCK=1024)", "dot[(1,)](p[it], q[it], pq, it, n, BLOCK=1024)")
    loops = [f for f in _cg_findings(sliced) if f.rewrite_family == "one-launch-over-grid"]
    assert loops and max(f.confidence for f in loops) >= 0.7
    assert not any((f.evidence.get("facts") or {}).get("refuted") for f in loops)


STARVED_TASK = '''
import torch
META = {"sizes": {"small": {"n": 131072}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(131072, generator=g).to(device), torch.rand(8 * 131072, generator=g).to(device))
def reference(a, b):
    return (a * a).sum() * b
'''

# one program adds up a 512 KB vector; a full grid then scales a 4 MB one: fewer bytes, most time
STARVED = '''
import torch, triton, triton.language as tl

@triton.jit
def sumsq(a, out, n, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(a + offs, mask=offs < n, other=0.0)
        acc += x * x
    tl.store(out, tl.sum(acc, axis=0))

@triton.jit
def scale(b, s, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    tl.store(out + offs, tl.load(s) * tl.load(b + offs, mask=ok, other=0.0), mask=ok)

def run(a, b):
    s = torch.empty(1, dtype=a.dtype)
    sumsq[(GRID,)](a, s, a.shape[0], BLOCK=1024)
    out = torch.empty_like(b)
    scale[(triton.cdiv(b.shape[0], 1024),)](b, s, out, b.shape[0], BLOCK=1024)
    return out
'''


def _starved(tmp_path, grid: int) -> list:
    from tests.test_diagnosis_session26 import traced
    found = traced(tmp_path, "starved", STARVED_TASK, STARVED.replace("GRID", str(grid)))
    return [f for f in found if f.rewrite_family == "split-work-across-programs"]


def test_one_program_streaming_a_minor_share_of_the_bytes_is_weighed_by_its_time(tmp_path):
    found = _starved(tmp_path, 1)
    assert len(found) == 1 and "every launch of sumsq runs 1 program" in found[0].message
    assert found[0].evidence.get("of_time") and found[0].evidence["share"] >= 0.5


def test_the_other_launch_and_a_grid_that_fills_the_machine_are_not_starved(tmp_path):
    found = _starved(tmp_path, 1)
    assert not [f for f in found if "scale" in f.message]
    # a single program holding the whole task at a few KB would finish in a launch's shadow;
    # the same kernel launched one program per SM is not starved at all
    full = tmp_path / "full"
    full.mkdir()
    assert _starved(full, 132) == []
