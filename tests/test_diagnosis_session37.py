"""Session 37's general readings (issue 12).

The CPU trace cuts a long sampled program short after a fixed amount of interpreter work, not
after some seconds: the same kernel is cut at the same step however loaded the machine is, so a
diagnosis does not depend on what else runs beside it. Two launches whose later one needs, in
every program, all that the earlier one stored (the next step of a diffusion, a matrix power)
cannot be one launch: Triton has no grid-wide barrier, and the source's fuse-launches claim is
refuted by the trace. Register spills in a kernel that compares each element with a whole tile
of a table it scans are the scan's, not a tile size's."""

from __future__ import annotations

from pathlib import Path

from diagnose.ladder import SPILLS_CAUSED_BY, _refute_global_handover
from diagnose.profiling import trace_child
from diagnose.profiling.trace import run_trace
from diagnose.triage import triage
from tests.test_diagnosis_session26 import _task

HEADER = "import torch, triton, triton.language as tl\n"

LONG_LOOP_TASK = '''
import torch
META = {"sizes": {"small": {"n": 64}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    return (torch.rand(64, generator=torch.Generator().manual_seed(seed)).to(device),)
def reference(x):
    return x * 0
'''

# one program runs far more steps than the work budget allows
LONG_LOOP = HEADER + '''

@triton.jit
def spin(x_ptr, out_ptr, steps, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(steps):
        acc += tl.load(x_ptr + offs) * 0.5
    tl.store(out_ptr + offs, acc)


def run(x):
    out = torch.empty_like(x)
    spin[(1,)](x, out, 10_000_000, BLOCK=64)
    return out
'''


def test_a_long_program_is_cut_at_the_same_step_every_time(tmp_path, monkeypatch):
    monkeypatch.delenv("PASSWISE_CAPTURE_CACHE", raising=False)
    task = _task(tmp_path, "spin", LONG_LOOP_TASK, LONG_LOOP)
    first, second = (run_trace(task, task / "baseline.py", size="small") for _ in range(2))
    [launch] = first["launches"]
    assert launch["truncated"] and launch["cut_by"] == "work"
    assert launch["work"][0] > trace_child.PROGRAM_WORK
    [load] = [a for a in first["accesses"] if a["op"] == "load"]
    [again] = [a for a in second["accesses"] if a["op"] == "load"]
    assert load["execs"] == again["execs"] and 0 < load["execs"][0] < 10_000_000
    assert launch["work"] == second["launches"][0]["work"]


DIFFUSE_TASK = '''
import torch
META = {"sizes": {"small": {"N": 128, "D": 128}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(128, 128, generator=g).to(device), torch.rand(128, 128, generator=g).to(device))
def reference(s, x):
    return s @ (s @ x)
'''

# a persistent grid of 7 programs walks (row, column block) items; the second launch's every
# item reads all rows of what the first launch stored
DIFFUSE = HEADER + '''

@triton.jit
def diffuse(s, x, out, N, D, BK: tl.constexpr, BD: tl.constexpr):
    pid = tl.program_id(0)
    nblk = tl.cdiv(D, BD)
    ks = tl.arange(0, BK)
    ds = tl.arange(0, BD)
    for item in range(pid, N * nblk, tl.num_programs(0)):
        node = item // nblk
        cols = (item % nblk) * BD + ds
        acc = tl.zeros([BD], dtype=tl.float32)
        for k0 in range(0, N, BK):
            kk = k0 + ks
            w = tl.load(s + node * N + kk)
            acc += tl.sum(w[:, None] * tl.load(x + kk[:, None] * D + cols[None, :]), axis=0)
        tl.store(out + node * D + cols, acc)


def run(s, x):
    n, d = x.shape
    mid = torch.empty_like(x)
    out = torch.empty_like(x)
    diffuse[(7,)](s, x, mid, n, d, BK=32, BD=32)
    diffuse[(7,)](s, mid, out, n, d, BK=32, BD=32)
    return out
'''

# the same persistent grid, but the second launch only scales the items it owns
SCALE = DIFFUSE.replace('''    diffuse[(7,)](s, mid, out, n, d, BK=32, BD=32)''', '''    scale[(7,)](mid, out, n * d, BLOCK=32)''') + '''

@triton.jit
def scale(x, out, n, BLOCK: tl.constexpr):
    for start in range(tl.program_id(0) * BLOCK, n, tl.num_programs(0) * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        tl.store(out + offs, tl.load(x + offs) * 2.0)
'''


def _fuse_claims(tmp_path: Path, name: str, kernel: str) -> list:
    task = _task(tmp_path, name, DIFFUSE_TASK, kernel)
    result = triage(kernel, str(task / "baseline.py"), "cuda")
    claims = [f for f in result.findings if f.rewrite_family == "fuse-launches"]
    assert claims, "the source reading claims the two launches could be one"
    _refute_global_handover(result, run_trace(task, task / "baseline.py", size="small"))
    return claims


def test_a_launch_needing_all_the_previous_launch_stored_is_no_fusion(tmp_path):
    for claim in _fuse_claims(tmp_path, "diffuse", DIFFUSE):
        assert "grid-wide dependency" in claim.evidence["refuted_by_trace"]


def test_a_launch_reading_a_slice_per_program_stays_a_fusion(tmp_path):
    assert not any("refuted_by_trace" in c.evidence for c in _fuse_claims(tmp_path, "scale", SCALE))


def test_a_scanned_tables_spills_confirm_the_scan():
    assert SPILLS_CAUSED_BY["common-linear-table-scan"] == "cuda-register-spills"


ROPE = HEADER + '''

@triton.jit
def rope(t, freqs, out, H, stride_s, HALF: tl.constexpr, BLOCK_H: tl.constexpr):
    s = tl.program_id(0)
    d = tl.arange(0, HALF)
    for h0 in range(0, H, BLOCK_H):
        h = h0 + tl.arange(0, BLOCK_H)
        offs = s * stride_s + h[:, None] * HALF * 2 + d[None, :]
        x1 = tl.load(t + offs)
        x2 = tl.load(t + offs + HALF)
        f = tl.load(freqs + s * HALF + d{angle})
        c, sn = tl.cos(f), tl.sin(f)
        tl.store(out + offs, x1 * c[None, :] - x2 * sn[None, :])
        tl.store(out + offs + HALF, x2 * c[None, :] + x1 * sn[None, :])
'''


def _invariant(source: str) -> list:
    return [f for f in triage(source, "k.py", "cuda").findings if f.card_id == "common-loop-invariant-work"]


def test_math_on_a_load_that_stays_in_the_loop_is_work_redone_every_iteration():
    [redone] = _invariant(ROPE.format(angle=""))
    assert redone.confidence == 0.7 and "tl.cos" in redone.message
    # the same angles read per program as one scalar: its math per iteration costs next to nothing
    [scalar] = _invariant(ROPE.format(angle="").replace("freqs + s * HALF + d", "freqs + s"))
    assert scalar.confidence == 0.5
    # angles read anew each iteration are no invariant work at all
    assert not _invariant(ROPE.format(angle=" + h0"))
    # a value computed from the invariant load keeps the math on it invariant
    [derived] = _invariant(ROPE.format(angle="").replace("tl.cos(f), tl.sin(f)", "tl.cos(f * 2.0), tl.sin(f)"))
    assert derived.confidence == 0.7
