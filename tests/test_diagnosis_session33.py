"""Session 33's general readings (issue 12), from the development misses.

A row-wide `tl.where` whose condition holds on the first steps of a loop and then for no lane
reads as lanes that all retired while the loop kept stepping. A one-hot match over a row's
column blocks (`cols == label`) has the same step pattern when the label sits in an early
block, yet its quiet steps are the row's other columns, which the loop still walks for the rest
of its work: it never keeps more than one lane, which a liveness mask does. And an atomic whose
neighbouring lanes add into the same address in sorted runs is a segment reduction even when
no integer key is loaded (cells computed from sorted positions)."""

from __future__ import annotations

from pathlib import Path

from diagnose.profiling.trace import run_trace, trace_findings
from tests.test_diagnosis_session26 import _task

HEADER = "import torch, triton, triton.language as tl\n"

# one row per program, walked in column blocks: a log-sum-exp over every column and the
# label's own logit picked by a one-hot select; the labels all sit in the first block
PICKED = HEADER + '''

@triton.jit
def picked_kernel(x_ptr, label_ptr, out_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    label = tl.load(label_ptr + row)
    total = 0.0
    picked = 0.0
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * V + cols, mask=cols < V, other=float("-inf"))
        total += tl.sum(tl.exp(x), axis=0)
        picked += tl.sum(tl.where(cols == label, x, 0.0), axis=0)
    tl.store(out_ptr + row, tl.log(total) - picked)


def run(x, labels):
    out = torch.empty(x.shape[0], dtype=torch.float32, device=x.device)
    picked_kernel[(x.shape[0],)](x, labels, out, x.shape[1], BLOCK=64)
    return out
'''

PICKED_TASK = '''
import torch
META = {"sizes": {"small": {"rows": 8, "V": 1024}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(8, 1024, generator=g)
    labels = torch.randint(0, 64, (8,), generator=g)
    return (x.to(device), labels.to(device))
def reference(x, labels):
    return torch.logsumexp(x, dim=1) - x.gather(1, labels[:, None])[:, 0]
'''

# the same loop with a liveness mask: each lane stops at the first column past its threshold,
# and every lane has stopped within the first block
RETIRING = PICKED.replace("    picked = 0.0\n", "    picked = 0.0\n    live = tl.arange(0, BLOCK) >= 0\n").replace(
    "        picked += tl.sum(tl.where(cols == label, x, 0.0), axis=0)",
    "        live = live & (cols < label)\n        picked += tl.sum(tl.where(live, x, 0.0), axis=0)")


def _retired(tmp_path: Path, name: str, kernel: str) -> list:
    task = _task(tmp_path, name, PICKED_TASK, kernel)
    report = run_trace(task, task / "baseline.py", size="small")
    return [f for f in trace_findings(report, task / "baseline.py") if f.card_id == "common-retired-lanes-loop"]


def test_a_one_hot_match_over_the_rows_column_blocks_retires_no_lanes(tmp_path):
    assert not _retired(tmp_path, "picked", PICKED)


def test_a_liveness_mask_that_empties_in_the_first_block_is_a_retired_lanes_loop(tmp_path):
    [retired] = _retired(tmp_path, "retiring", RETIRING)
    assert retired.rewrite_family == "skip-masked-tiles"


# particles deposit into the cell their position falls in; the particles come sorted by cell,
# so neighbouring lanes add into the same address in runs (no integer key is ever loaded)
DEPOSIT = HEADER + '''

@triton.jit
def deposit_kernel(pos_ptr, q_ptr, rho_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    live = offs < n
    x = tl.load(pos_ptr + offs, mask=live, other=0.0)
    q = tl.load(q_ptr + offs, mask=live, other=0.0)
    cell = x.to(tl.int32)
    tl.atomic_add(rho_ptr + cell, q, mask=live)


def run(pos, q):
    rho = torch.zeros(2048, dtype=torch.float32, device=pos.device)
    deposit_kernel[(triton.cdiv(pos.numel(), 128),)](pos, q, rho, pos.numel(), BLOCK=128)
    return rho
'''

DEPOSIT_TASK = '''
import torch
META = {{"sizes": {{"small": {{"n": 8192}}}}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    pos = torch.rand(8192, generator=g) * 2048
    {order}
    q = torch.rand(8192, generator=g)
    return (pos.to(device), q.to(device))
def reference(pos, q):
    return torch.zeros(2048).index_add_(0, pos.long(), q)
'''


def _atomic_cards(tmp_path: Path, name: str, order: str) -> set:
    task = _task(tmp_path, name, DEPOSIT_TASK.format(order=order), DEPOSIT)
    report = run_trace(task, task / "baseline.py", size="small")
    return {f.card_id for f in trace_findings(report, task / "baseline.py")}


def test_an_atomic_whose_neighbouring_lanes_add_into_sorted_cells_is_a_segment_reduction(tmp_path):
    assert "common-sorted-key-atomics" in _atomic_cards(tmp_path, "sorted", "pos = pos.sort().values")


def test_an_atomic_into_cells_in_no_order_is_no_segment_reduction(tmp_path):
    assert "common-sorted-key-atomics" not in _atomic_cards(tmp_path, "shuffled", "pos = pos")
