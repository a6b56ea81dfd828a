"""Session 20's trace measures: programs that do one element's scalar work (however many times
a helper is called, no loop), programs that store nothing after loading whole tiles, and
programs that re-read the tiles before their own. Real launchers run in Triton's interpreter;
each kernel has a twin the rule must leave alone."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from diagnose.profiling.trace import run_trace, trace_findings

pytestmark = pytest.mark.xdist_group("trace")

TASK = '''
import torch

META = {"sizes": {"small": {"N": 16384}, "large": {"N": 16384}}, "dtypes": ["float32"]}


def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(max(META["sizes"][size]["N"] * 4, 8 * 16 * 1024), generator=g).to(device),)


def reference(x):
    return None
'''

# One program per item, scalar loads through a helper called twice: a GPU thread's work.
SCALAR = '''
import torch
import triton
import triton.language as tl


@triton.jit
def _pair(ptr, i):
    return tl.load(ptr + i), tl.load(ptr + i + 1)


@triton.jit
def item(x_ptr, out_ptr):
    e = tl.program_id(0)
    a, b = _pair(x_ptr, e * 4)
    c, d = _pair(x_ptr, e * 4 + 2)
    {body}
    tl.store(out_ptr + e, a * d - b * c + s)


def run(x):
    out = torch.empty(16384, dtype=x.dtype, device=x.device)
    item[(out.numel(),)](x, out)
    return out
'''

# Segments of 96 rows each in a 64-row tiling of the whole batch: programs past their segment
# load the shared weight tile and store nothing (EARLY leaves before the loads).
SEGMENTS = '''
import torch
import triton
import triton.language as tl


@triton.jit
def expand(x_ptr, w_ptr, out_ptr, count, BLOCK: tl.constexpr, D: tl.constexpr, EARLY: tl.constexpr):
    pid = tl.program_id(0)
    seg = tl.program_id(1)
    if EARLY:
        if pid * BLOCK >= count:
            return
    rows = pid * BLOCK + tl.arange(0, BLOCK)
    keep = rows < count
    d = tl.arange(0, D)
    w = tl.load(w_ptr + seg * D * D + d[:, None] * D + d[None, :])
    x = tl.load(x_ptr + seg * 4096 + rows[:, None] * D + d[None, :], mask=keep[:, None], other=0.0)
    y = tl.sum(x[:, :, None] * w[None, :, :], axis=1)
    tl.store(out_ptr + seg * 4096 + rows[:, None] * D + d[None, :], y, mask=keep[:, None])


def run(x):
    out = torch.zeros(16 * 4096, dtype=x.dtype, device=x.device)
    expand[(16, 16)](x, x, out, 96, BLOCK=64, D=16, EARLY={early})
    return out
'''

# Items (row, tile) spread over 5 programs; each item sums the tiles before its own (RESCAN),
# or each program walks whole rows carrying the running sum.
PREFIX = '''
import torch
import triton
import triton.language as tl


@triton.jit
def _tile(ptr, row, t, TILE: tl.constexpr):
    return tl.load(ptr + row * 16 * TILE + t * TILE + tl.arange(0, TILE))


@triton.jit
def rescan(x_ptr, out_ptr, TILE: tl.constexpr):
    for item in range(tl.program_id(0), 128, tl.num_programs(0)):
        row = item // 16
        t = item % 16
        mass = tl.zeros([TILE], dtype=tl.float32)
        for j in range(0, t):
            mass += _tile(x_ptr, row, j, TILE)
        own = _tile(x_ptr, row, t, TILE)
        tl.store(out_ptr + row * 16 * TILE + t * TILE + tl.arange(0, TILE), own + tl.sum(mass, axis=0))


@triton.jit
def carry(x_ptr, out_ptr, TILE: tl.constexpr):
    for row in range(tl.program_id(0), 8, tl.num_programs(0)):
        mass = 0.0
        for t in range(0, 16):
            own = _tile(x_ptr, row, t, TILE)
            tl.store(out_ptr + row * 16 * TILE + t * TILE + tl.arange(0, TILE), own + mass)
            mass += tl.sum(own, axis=0)


def run(x):
    out = torch.empty(8 * 16 * 1024, dtype=x.dtype, device=x.device)
    {kernel}[(5,)](x, out, TILE=1024)
    return out
'''


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("trace20")
    (root / "task.py").write_text(textwrap.dedent(TASK))
    for name, text in (("scalar.py", SCALAR.replace("{body}", "s = 0.0")),
                       ("scalar_loop.py", SCALAR.replace(
                           "{body}", "s = 0.0\n    for k in range(4):\n        s += tl.load(x_ptr + k)")),
                       ("late.py", SEGMENTS.replace("{early}", "False")),
                       ("early.py", SEGMENTS.replace("{early}", "True")),
                       ("rescan.py", PREFIX.replace("{kernel}", "rescan")),
                       ("carry.py", PREFIX.replace("{kernel}", "carry"))):
        (root / name).write_text(textwrap.dedent(text))
    return root


@pytest.fixture(autouse=True)
def cache(tmp_path_factory, monkeypatch) -> None:
    monkeypatch.setenv("PASSWISE_CAPTURE_CACHE", str(tmp_path_factory.getbasetemp() / "trace20-cache"))


def _found(folder: Path, name: str) -> dict:
    report = run_trace(folder, folder / name, size="small")
    assert report["setup_error"] is None, report.get("setup_traceback")
    return {f.rewrite_family: f for f in trace_findings(report, folder / name)}


def test_one_item_of_scalar_work_per_program_is_a_program_too_small(folder):
    """Four scalar loads through a helper called twice are no loop: each of the 16,384 programs
    moves a few bytes once. A real loop of four loads is not counted as that."""
    found = _found(folder, "scalar.py")["multi-row-programs"]
    assert found.evidence["facts"]["programs"] == 16384
    assert "multi-row-programs" not in _found(folder, "scalar_loop.py")


def test_programs_that_load_whole_tiles_and_store_nothing_skip_them(folder):
    """Past its segment's 96 rows a program still loads the weight tile and multiplies it, and
    stores nothing: said. Programs that leave before their loads: not said."""
    found = _found(folder, "late.py")["skip-masked-tiles"]
    assert found.card_id == "common-gated-program" and found.evidence["facts"]["empty_programs"] >= 2
    assert "skip-masked-tiles" not in _found(folder, "early.py")


def test_programs_rereading_the_tiles_before_their_own_are_measured(folder):
    """Each item re-reads the earlier tiles of its row, which the neighbouring program's items
    read too: the loads run several times per tile stored. Carrying the running sum: not said."""
    report = run_trace(folder, folder / "rescan.py", size="small")
    load = next(a for a in report["accesses"] if a["op"] == "load")
    assert max(load["overlap_next"].values()) < 0.9  # not most addresses shared: the loads per store tell
    assert "compute-stats-once" in _found(folder, "rescan.py")
    assert "compute-stats-once" not in _found(folder, "carry.py")
