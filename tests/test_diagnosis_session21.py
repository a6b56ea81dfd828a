"""Session 21's general rules. An Ascend grid sized to the smallest Atlas A2 part (40 vector cores,
20 cube cores) fills the part it runs on: neither the source reading nor the CPU trace calls it
an underfilled grid, while a grid well below it still is."""

from __future__ import annotations

import pytest

from diagnose.triage import triage

# a triton-ascend style reduction: a fixed grid of CORES programs, each looping over its rows
GRID_LOOP = '''
import torch
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, out_ptr, n_rows, n_cols, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    step = tl.num_programs(0)
    cols = tl.arange(0, BLOCK)
    for row in range(pid, n_rows, step):
        v = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
        tl.store(out_ptr + row, tl.sum(v, axis=0))


def run(x):
    out = torch.empty(x.shape[0], dtype=x.dtype, device=x.device)
    cores = CORES
    k[(cores,)](x, out, x.shape[0], x.shape[1], BLOCK=1024)
    return out
'''


def _underfill(cores: int) -> list:
    found = triage(GRID_LOOP.replace("CORES", str(cores)), "k.py", "ascend").findings
    return [f for f in found if f.rewrite_family == "split-work-across-programs"]


@pytest.mark.parametrize("cores", [40, 44])
def test_a_grid_of_the_smallest_parts_vector_cores_is_not_underfill(cores):
    assert _underfill(cores) == []


def test_a_grid_well_below_the_cores_is_still_underfill():
    found = _underfill(8)
    assert found and "8 programs" in found[0].message


TASK = '''
import torch

META = {"sizes": {"small": {"R": 256, "C": 1024}, "large": {"R": 256, "C": 1024}}, "dtypes": ["float32"]}


def make_inputs(size, device="cpu", seed=0, dtype=None):
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(s["R"], s["C"], generator=g).to(device),)


def reference(x):
    return x.sum(dim=1)
'''


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("trace21")
    (root / "task.py").write_text(TASK)
    for cores in (8, 40):
        (root / f"grid{cores}.py").write_text(GRID_LOOP.replace("CORES", str(cores)))
    return root


@pytest.mark.xdist_group("trace")
@pytest.mark.parametrize("cores, underfilled", [(8, True), (40, False)])
def test_the_trace_weighs_an_ascend_grid_against_the_part_it_fills(folder, cores, underfilled, tmp_path_factory,
                                                                    monkeypatch):
    from diagnose.profiling.trace import run_trace, trace_findings

    monkeypatch.setenv("PASSWISE_CAPTURE_CACHE", str(tmp_path_factory.getbasetemp() / "trace21-cache"))
    kernel = folder / f"grid{cores}.py"
    report = run_trace(folder, kernel, size="small")
    assert report["setup_error"] is None, report.get("setup_traceback")
    found = [f for f in trace_findings(report, kernel, backend="ascend")
             if f.rewrite_family == "split-work-across-programs"]
    assert bool(found) is underfilled
