"""Session 35's general readings (issue 12), from round 44's and round 45's first runs.

A program that sums every later (or earlier) step of a sequence from its own step on walks
C(C+1)/2 steps over the grid, whether the walk reads one array or several in the same loop:
the loads of one loop are weighed together, and a walk that shrinks along the grid (a suffix
re-sum, the backward pass of a recurrence) is the same reading as one that grows.

On the NPU, a grid of thousands of programs that each move a few kilobytes once runs in rounds
of short programs on the cores the programs are bound to: the trace measures it, the source's
estimate of the same grid counts once beside it, and it ranks without overruling an idiom a
higher tier confirmed. Lanes masked at a length the kernel reads per item (a ragged sequence in
a block sized for the longest) are no block size to shrink. A loop that carries the last
position a test picked (`c = tl.where(hit, x, c)`) or a running minimum and stores it at every
step emits a scan's prefixes: a scan, not loads to widen nor a chain no scan can split; and a
select that keeps a position, dropping nothing the step loaded, is no skipped iteration."""

from __future__ import annotations

from diagnose.ladder import _supersede_grid
from diagnose.profiling.trace import run_trace, trace_findings
from diagnose.triage import triage
from diagnose.weigh import rank
from tests.test_diagnosis_session26 import _task, traced

HEADER = "import torch, triton, triton.language as tl\n"

SUFFIX_TASK = '''
import torch
META = {"sizes": {"small": {"t": 48, "n": 256}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(48, 256, generator=g).to(device), torch.randn(48, 256, generator=g).to(device))
def reference(u, d):
    out = torch.empty_like(u)
    acc = torch.zeros_like(u[0])
    for s in range(u.shape[0] - 1, -1, -1):
        acc = acc * 0.9 + u[s] * d[s]
        out[s] = acc
    return out
'''

# each (block, step) program re-sums the product of two arrays over every later step
SUFFIX_RESUM = HEADER + '''

@triton.jit
def suffix_kernel(u_ptr, d_ptr, out_ptr, steps, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    t = tl.program_id(1)
    ok = offs < n
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    decay = 1.0
    for s in range(t, steps):
        u = tl.load(u_ptr + s * n + offs, mask=ok, other=0.0)
        d = tl.load(d_ptr + s * n + offs, mask=ok, other=0.0)
        acc += decay * u * d
        decay = decay * 0.9
    tl.store(out_ptr + t * n + offs, acc, mask=ok)


def run(u, d):
    steps, n = u.shape
    out = torch.empty_like(u)
    suffix_kernel[(triton.cdiv(n, 128), steps)](u, d, out, steps, n, BLOCK=128)
    return out
'''

# the same grid with every program summing all steps: no walk grows or shrinks
WHOLE_SUM = SUFFIX_RESUM.replace("for s in range(t, steps):", "for s in range(0, steps):")


def _prefix(tmp_path, name: str, source: str):
    return [f for f in traced(tmp_path, name, SUFFIX_TASK, source) if f.card_id == "common-prefix-rescan"]


def test_a_suffix_resum_over_two_arrays_in_one_loop_is_a_running_value_to_carry(tmp_path):
    [walk] = _prefix(tmp_path, "suffix", SUFFIX_RESUM)
    assert walk.rewrite_family == "carry-running-prefix"
    # both loads of the loop are named and weighed together (each alone is under half the bytes)
    assert len(walk.evidence["facts"]["lines"]) == 2 and walk.evidence["share"] > 0.9
    assert "after its position" in walk.message
    assert not _prefix(tmp_path, "whole", WHOLE_SUM)


ROWS_TASK = '''
import torch
META = {"sizes": {"small": {"rows": 8192, "n": 60}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    return (torch.randn(8192, 60, generator=torch.Generator().manual_seed(seed)).to(device),)
def reference(x):
    return x * 2.0 + 1.0
'''

# one program per row of 60 floats: 8,192 programs that each move 480 bytes in and out once
COLUMN_PER_PROGRAM = HEADER + '''

@triton.jit
def column_kernel(x_ptr, y_ptr, n, BL: tl.constexpr):
    row = tl.program_id(0)
    lev = tl.arange(0, BL)
    m = lev < n
    x = tl.load(x_ptr + row * n + lev, mask=m, other=0.0)
    tl.store(y_ptr + row * n + lev, x * 2.0 + 1.0, mask=m)


def run(x):
    rows, n = x.shape
    y = torch.empty_like(x)
    column_kernel[(rows,)](x, y, n, BL=64)
    return y
'''

# the same work in 40 programs that loop over blocks of rows
CORES_LOOP = HEADER + '''

@triton.jit
def column_kernel(x_ptr, y_ptr, rows, n, ROWS: tl.constexpr, BL: tl.constexpr):
    lev = tl.arange(0, BL)
    for blk in range(tl.program_id(0), tl.cdiv(rows, ROWS), tl.num_programs(0)):
        r = blk * ROWS + tl.arange(0, ROWS)
        m = (r < rows)[:, None] & (lev < n)[None, :]
        offs = r[:, None] * n + lev[None, :]
        x = tl.load(x_ptr + offs, mask=m, other=0.0)
        tl.store(y_ptr + offs, x * 2.0 + 1.0, mask=m)


def run(x):
    rows, n = x.shape
    y = torch.empty_like(x)
    column_kernel[(40,)](x, y, rows, n, ROWS=16, BL=64)
    return y
'''


def _grid_rounds(tmp_path, name: str, source: str):
    task = _task(tmp_path, name, ROWS_TASK, source)
    report = run_trace(task, task / "baseline.py", size="small")
    return source, task, [f for f in trace_findings(report, task / "baseline.py", "ascend")
                          if f.card_id == "ascend-grid-exceeds-cores"]


def test_rounds_of_short_single_pass_programs_on_the_npu_are_a_grid_to_size_to_the_cores(tmp_path):
    source, task, [rounds] = _grid_rounds(tmp_path, "rows", COLUMN_PER_PROGRAM)
    assert rounds.rewrite_family == "grid-size-cores" and rounds.evidence["ranks_only"]
    assert rounds.evidence["facts"]["programs"] == 8192
    # the source's estimate of the same grid counts once beside the measure, not twice
    tier1 = triage(source, str(task / "baseline.py"), "ascend")
    estimate = next(f for f in tier1.findings if f.card_id == "ascend-grid-exceeds-cores")
    _supersede_grid(tier1, [rounds])
    assert estimate.evidence.get("superseded_by_trace")
    tier1.findings.append(rounds)
    [grid] = [c for c in rank([tier1]) if c.rewrite_family == "grid-size-cores"]
    assert grid.score == max(estimate.confidence, rounds.confidence)
    assert not _grid_rounds(tmp_path, "loop", CORES_LOOP)[2]


LENGTHS_TASK = '''
import torch
META = {"sizes": {"small": {"b": 64, "t": 100, "d": 32}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(64, 100, 32, generator=g).to(device),
            torch.randint(1, 51, (64,), generator=g, dtype=torch.int32).to(device))
def reference(x, lengths):
    m = torch.arange(100)[None, :] < lengths.long()[:, None]
    return (x * m[:, :, None]).sum(1)
'''

# each item's ragged sequence (1-50 of 100 padded positions) summed in a 128-position block
RAGGED_SUM = HEADER + '''

@triton.jit
def pool_kernel(x_ptr, len_ptr, out_ptr, T, D: tl.constexpr, BL: tl.constexpr):
    b = tl.program_id(0)
    n = tl.load(len_ptr + b)
    t = tl.arange(0, BL)
    d = tl.arange(0, D)
    x = tl.load(x_ptr + b * T * D + t[:, None] * D + d[None, :], mask=(t < n)[:, None], other=0.0)
    tl.store(out_ptr + b * D + d, tl.sum(x, axis=0))


def run(x, lengths):
    B, T, D = x.shape
    out = torch.empty(B, D, device=x.device)
    pool_kernel[(B,)](x, lengths, out, T, D=D, BL=LENGTH_BLOCK)
    return out
'''


def _idle_blocks(tmp_path, name: str, source: str):
    return [f for f in traced(tmp_path, name, LENGTHS_TASK, source) if f.card_id == "common-block-size"]


def test_lanes_masked_at_a_length_read_per_item_are_no_block_to_shrink(tmp_path):
    assert not _idle_blocks(tmp_path, "ragged", RAGGED_SUM.replace("LENGTH_BLOCK", "128"))
    # the same block over a bound the launch passes (every item 40 long) is far too large
    fixed = RAGGED_SUM.replace("LENGTH_BLOCK", "128").replace(
        "n = tl.load(len_ptr + b)", "n = 40 + 0 * b")
    assert _idle_blocks(tmp_path, "fixed", fixed)


# the last obstacle to the left of each cell, carried as a position and stored at every step
LAST_HIT = HEADER + '''

@triton.jit
def row_kernel(occ_ptr, out_ptr, W, CAP):
    base = tl.program_id(0) * W
    last = -CAP
    for x in range(0, W):
        site = tl.load(occ_ptr + base + x)
        last = tl.where(site != 0, x, last)
        tl.store(out_ptr + base + x, tl.minimum(x - last, CAP))


def run(occ, cap):
    out = torch.empty(occ.shape, dtype=torch.int32, device=occ.device)
    row_kernel[(occ.shape[0],)](occ, out, occ.shape[1], cap)
    return out
'''


def _cards(source: str) -> set[str]:
    return {f.card_id for f in triage(source, "k.py", "cuda").findings}


def test_a_carried_position_a_test_picks_stored_every_step_is_a_scan():
    cards = _cards(LAST_HIT)
    assert "common-serial-recurrence" in cards
    # not loads to widen, not a chain no scan splits, not an iteration thrown away
    assert not cards & {"cuda-scalar-element-loop", "common-item-recurrence", "common-gated-iteration"}
    [scan] = [f for f in triage(LAST_HIT, "k.py", "cuda").findings if f.card_id == "common-serial-recurrence"]
    assert "associative" in scan.message
    # a state that reads itself inside the step value is no scan's combine
    chained = LAST_HIT.replace("last = tl.where(site != 0, x, last)", "last = tl.where(site != 0, x, last * last)")
    assert "common-serial-recurrence" not in _cards(chained)


# the same select keeping a loaded tile or dropping it: a step whose loads are thrown away
GATED = HEADER + '''

@triton.jit
def gate_kernel(flag_ptr, x_ptr, out_ptr, n_blocks, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for b in range(0, n_blocks):
        keep = tl.load(flag_ptr + b)
        x = tl.load(x_ptr + b * BLOCK + offs)
        acc += tl.where(keep != 0, x, 0.0)
    tl.store(out_ptr + offs, acc)


def run(flags, x):
    out = torch.empty(256, device=x.device)
    gate_kernel[(1,)](flags, x, out, flags.shape[0], BLOCK=256)
    return out
'''


def test_a_select_that_drops_a_loaded_tile_is_a_skipped_iteration_and_one_keeping_a_position_is_not():
    assert "common-gated-iteration" in _cards(GATED)
    kept = GATED.replace("acc += tl.where(keep != 0, x, 0.0)", "acc += x + tl.where(keep != 0, b, 0)")
    assert "common-gated-iteration" not in _cards(kept)
