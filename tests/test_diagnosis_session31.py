"""Session 31's general readings (issue 12), from the development misses.

An element walk (a loop whose steps each load one value the loop indexes and reduce a tile to one
value) is a chain of latency-bound steps that one tile of elements per step replaces. When every
step also loads a tile the loop variable places, and no value the step loads places it, the step
moves a row and the scalar is that row's parameter (a scale, a width): the walk is one of rows,
its cost is the steps' transfers, and a step of several rows is the fix. A row placed through an
index the step loads (a block table) stays a walk of dependent lookups."""

from __future__ import annotations

from diagnose.ladder import Options, diagnose, make_context
from diagnose.target import resolve_target
from diagnose.triage import triage
from tests.test_ladder import make_task

HEADER = "import torch, triton, triton.language as tl\n"

# each step: one row of x the loop places, and that row's scale read beside it
ROW_WITH_SCALE = HEADER + '''

@triton.jit
def scaled_row_sum_kernel(x_ptr, scale_ptr, out_ptr, n_rows, L, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BLOCK)
    for r in range(pid, n_rows, nprog):
        x = tl.load(x_ptr + r * L + cols, mask=cols < L, other=0.0)
        s = tl.load(scale_ptr + r)
        tl.store(out_ptr + r, tl.sum(x * s, axis=0))


def run(x, scale):
    n_rows, L = x.shape
    out = torch.empty(n_rows, device=x.device, dtype=x.dtype)
    scaled_row_sum_kernel[(40,)](x, scale, out, n_rows, L, BLOCK=triton.next_power_of_2(L))
    return out
'''

# each step: a row found through the block table entry the step loads
ROW_THROUGH_INDEX = ROW_WITH_SCALE.replace(
    "x = tl.load(x_ptr + r * L + cols, mask=cols < L, other=0.0)\n        s = tl.load(scale_ptr + r)",
    "s = tl.load(scale_ptr + r)\n        x = tl.load(x_ptr + s.to(tl.int32) * L + cols, mask=cols < L, other=0.0)")


def _walk(source: str, backend: str):
    return [f for f in triage(source, "k.py", backend).findings if f.evidence.get("detector") == "scalar-loop"]


def test_an_element_walk_whose_steps_move_a_row_the_loop_places_is_a_row_walk():
    for backend in ("ascend", "cuda"):
        [walk] = _walk(ROW_WITH_SCALE, backend)
        assert walk.evidence["facts"].get("row_step") is True
        assert walk.confidence < 0.5


def test_a_row_placed_through_a_loaded_index_stays_an_element_walk():
    [walk] = _walk(ROW_THROUGH_INDEX, "ascend")
    assert "row_step" not in walk.evidence["facts"]
    assert walk.confidence >= 0.65


def test_the_traced_row_walk_outranks_the_element_walk(tmp_path, monkeypatch):
    """The whole tier-1 ladder with the CPU trace: the trace counts hundreds of one-element loads a
    program (the scales), but each sits beside a row the same step moves, so the walk does not
    raise the element reading; the trace's row-per-step reading ranks first."""
    monkeypatch.setenv("PASSWISE_CAPTURE_CACHE", str(tmp_path / "cache"))
    task = '''
import torch
META = {"name": "scaled_rows", "sizes": {"small": {"R": 16384}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(16384, 100, generator=g), torch.rand(16384, generator=g))
def reference(x, scale):
    return (x * scale[:, None]).sum(1)
'''
    folder = make_task(tmp_path, "scaled_rows", task, ROW_WITH_SCALE)
    ctx = make_context(resolve_target(str(folder)), "ascend",
                       Options(max_tier=1, trace=True, size="small"), open_kb=None)
    d = diagnose(ctx)
    walk = [f for f in d.tiers[0].findings if f.evidence.get("detector") == "scalar-loop"]
    assert walk and "measured_by_trace" not in walk[0].evidence
    assert d.ranking[0]["rewrite_family"] == "multi-row-programs", d.ranking
