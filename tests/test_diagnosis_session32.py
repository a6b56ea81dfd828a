"""Session 32's general readings (issue 12), from the development misses.

A lane that steps through a segment whose start it loaded (an extension from a hit, a ray, a
document) reads an address the data chose on every step: a bigger block gives each thread more
such lanes, never a wider access, so the IR's narrow loads there are a gather, whatever their
mask is built from. And a loop whose lanes all retire long before its range ends shows in the
CPU trace as steps with every lane masked off; those steps belong to the loop body as a whole
(each of its loads may carry little of the traffic alone), and only programs that loop count
(a program at the grid's edge whose one step is all masked off is no loop)."""

from __future__ import annotations

from pathlib import Path

from diagnose.ir import attribute, capture_cuda
from diagnose.profiling.trace import run_trace, trace_findings
from diagnose.triage import triage
from tests.test_diagnosis_session26 import _task

HEADER = "import torch, triton, triton.language as tl\n"

# each lane extends from its own loaded start for a fixed number of steps; the mask is the
# step bound (an argument), not data, and the tile is no wider than the 128 threads
EXTEND = HEADER + '''

@triton.jit
def extend_kernel(seq_ptr, starts_ptr, out_ptr, n, SPAN, BLOCK: tl.constexpr):
    lane = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    live = lane < n
    start = tl.load(starts_ptr + lane, mask=live, other=0)
    acc = tl.zeros([BLOCK], tl.int32)
    for t in range(0, SPAN):
        a = tl.load(seq_ptr + start + t, mask=live, other=0)
        acc += a.to(tl.int32)
    tl.store(out_ptr + lane, acc, mask=live)


def run(seq, starts, span):
    out = torch.empty(starts.numel(), dtype=torch.int32, device=seq.device)
    extend_kernel[(triton.cdiv(starts.numel(), 128),)](seq, starts, out, starts.numel(), span, BLOCK=128)
    return out
'''

EXTEND_TASK = '''
import torch
META = {"sizes": {"small": {"n": 256}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    seq = torch.randint(0, 20, (4096,), generator=g, dtype=torch.int8)
    starts = torch.randint(0, 4000, (256,), generator=g, dtype=torch.int32)
    return (seq.to(device), starts.to(device), 64)
def reference(seq, starts, span):
    idx = starts.long()[:, None] + torch.arange(span)[None, :]
    return seq.long()[idx].sum(1).int()
'''

# one row per program, found through a scalar the program loads: every lane shares the start
ROW_LOOKUP = EXTEND.replace(
    "start = tl.load(starts_ptr + lane, mask=live, other=0)",
    "start = tl.load(starts_ptr + tl.program_id(0)) + tl.arange(0, BLOCK)")

# each lane walks on until its running score drops (an X-drop extension): the loop runs its
# whole range after every lane has stopped; three loads a step, none most of the traffic
XDROP = HEADER + '''

@triton.jit
def xdrop_kernel(q_ptr, s_ptr, w_ptr, starts_ptr, out_ptr, n, SPAN, BLOCK: tl.constexpr):
    lane = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    live = lane < n
    start = tl.load(starts_ptr + lane, mask=live, other=0)
    score = tl.zeros([BLOCK], tl.float32)
    best = tl.zeros([BLOCK], tl.float32)
    alive = live
    for t in range(0, SPAN):
        a = tl.load(q_ptr + start + t, mask=alive, other=0.0)
        b = tl.load(s_ptr + start + t, mask=alive, other=0.0)
        w = tl.load(w_ptr + start + t, mask=alive, other=0.0)
        score += tl.where(alive, a * b * w, 0.0)
        best = tl.maximum(best, score)
        alive = alive & (score > best - 2.0)
    tl.store(out_ptr + lane, best, mask=live)


def run(q, s, w, starts, span):
    out = torch.empty(starts.numel(), dtype=torch.float32, device=q.device)
    xdrop_kernel[(triton.cdiv(starts.numel(), 64),)](q, s, w, starts, out, starts.numel(), span, BLOCK=64)
    return out
'''

XDROP_TASK = '''
import torch
META = {"sizes": {"small": {"n": 128}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    q, s, w = (torch.randn(8192, generator=g).to(device) for _ in range(3))
    starts = torch.randint(0, 8000, (128,), generator=g, dtype=torch.int32)
    return (q, s, w, starts.to(device), 128)
def reference(q, s, w, starts, span):
    out = []
    for st in starts.tolist():
        score = best = 0.0
        for t in range(span):
            score += float(q[st + t] * s[st + t] * w[st + t])
            best = max(best, score)
            if not score > best - 2.0:
                break
        out.append(best)
    return torch.tensor(out)
'''

# a 2-D grid of columns: the programs of the first and last column have every interior lane
# masked off in their only step (the grid's edge, not a loop)
EDGE_COLUMNS = HEADER + '''

@triton.jit
def column_kernel(u_ptr, out_ptr, H, W, BLOCK: tl.constexpr):
    j = tl.program_id(0)
    i = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    inner = (i < H) & (j > 0) & (j < W - 1)
    up = tl.load(u_ptr + i * W + j - 1, mask=inner, other=0.0)
    down = tl.load(u_ptr + i * W + j + 1, mask=inner, other=0.0)
    tl.store(out_ptr + i * W + j, up + down, mask=i < H)


def run(u):
    H, W = u.shape
    out = torch.empty_like(u)
    column_kernel[(W, triton.cdiv(H, 64))](u, out, H, W, BLOCK=64)
    return out
'''

EDGE_TASK = '''
import torch
META = {"sizes": {"small": {"H": 64, "W": 3}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    return (torch.randn(64, 3, generator=torch.Generator().manual_seed(seed)).to(device),)
def reference(u):
    out = torch.zeros_like(u)
    out[:, 1:-1] = u[:, :-2] + u[:, 2:]
    return out
'''


def _narrow(tmp_path: Path, name: str, kernel: str):
    [narrow] = [s for s in attribute(capture_cuda(_task(tmp_path, name, EXTEND_TASK, kernel)))
                if s.id == "scalar-global-loads"]
    return narrow, next(i for i, text in enumerate(kernel.splitlines(), 1) if "a = tl.load" in text)


def test_a_lane_stepping_from_a_start_it_loaded_is_a_gather_not_a_small_tile(tmp_path):
    narrow, line = _narrow(tmp_path, "extend", EXTEND)
    assert line in narrow.mechanisms.get("gathered-pointer", [])
    assert line not in narrow.mechanisms.get("tile-within-threads", [])


def test_a_row_found_through_one_scalar_the_program_loads_is_no_gather(tmp_path):
    narrow, line = _narrow(tmp_path, "lookup", ROW_LOOKUP)
    assert line not in narrow.mechanisms.get("gathered-pointer", [])


def _trace_families(tmp_path: Path, name: str, task_py: str, kernel: str) -> dict:
    task = _task(tmp_path, name, task_py, kernel)
    report = run_trace(task, task / "baseline.py", size="small")
    return {f.rewrite_family: f for f in trace_findings(report, task / "baseline.py")}


def test_steps_after_every_lane_stopped_are_skipped_steps_of_the_whole_loop_body(tmp_path):
    found = _trace_families(tmp_path, "xdrop", XDROP_TASK, XDROP)
    skip = found["skip-masked-tiles"]
    facts = skip.evidence["facts"]
    assert facts["idle_steps"] * 2 >= facts["steps"]
    assert "block-size-tuning" not in found


def test_a_grid_edge_whose_only_step_is_masked_off_is_no_loop_to_stop(tmp_path):
    found = _trace_families(tmp_path, "edges", EDGE_TASK, EDGE_COLUMNS).values()
    assert not [f for f in found if "idle_steps" in f.evidence.get("facts", {})]


# a march whose samples are read for every lane on every step (no mask on the loads): only the
# guarded update shows that every lane stopped long before the loop's fixed count
MARCH = HEADER + '''

@triton.jit
def march_kernel(field_ptr, org_ptr, out_ptr, n, R, STEPS: tl.constexpr, BLOCK: tl.constexpr):
    lane = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inb = lane < n
    t = tl.load(org_ptr + lane, mask=inb, other=0.0)
    res = tl.full([BLOCK], 1.0, tl.float32)
    live = inb
    for _ in range(STEPS):
        i = tl.minimum(tl.maximum(t.to(tl.int32), 0), R - 1)
        h = tl.load(field_ptr + i)
        res = tl.where(live, tl.minimum(res, h), res)
        t = tl.where(live, t + 1.0, t)
        live = live & (res > 0.25)
    tl.store(out_ptr + lane, res, mask=inb)


def run(field, org):
    out = torch.empty(org.numel(), dtype=torch.float32, device=org.device)
    march_kernel[(triton.cdiv(org.numel(), 64),)](field, org, out, org.numel(), field.numel(), STEPS=64, BLOCK=64)
    return out
'''

MARCH_TASK = '''
import torch
META = {"sizes": {"small": {"n": 128}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    field = torch.rand(512, generator=g)
    org = torch.randint(0, 400, (128,), generator=g).float()
    return (field.to(device), org.to(device))
def reference(field, org):
    out = []
    for t0 in org.tolist():
        res, t = 1.0, int(t0)
        for _ in range(64):
            res = min(res, float(field[min(max(t, 0), 511)]))
            t += 1
            if not res > 0.25:
                break
        out.append(res)
    return torch.tensor(out)
'''

# a running minimum over many steps: no lane improves on most late steps, yet some lane does
# on some step near the end, and a condition that never held for any lane retired none
RUNNING_MIN = MARCH.replace("live = live & (res > 0.25)", "live = h < res").replace(
    "res = tl.where(live, tl.minimum(res, h), res)", "res = tl.where(h < res, h, res)").replace(
    "t = tl.where(live, t + 1.0, t)", "t = t + 1.0 + tl.where(h > 2.0, 1.0, 0.0)")


def _retired(found) -> list:
    return [f for f in found if f.card_id == "common-retired-lanes-loop"]


def test_lanes_that_all_retired_while_the_loop_kept_stepping_are_measured(tmp_path):
    found = _trace_families(tmp_path, "march", MARCH_TASK, MARCH).values()
    [retired] = _retired(found)
    facts = retired.evidence["facts"]
    assert retired.rewrite_family == "skip-masked-tiles" and facts["idle_steps"] * 2 >= facts["steps"]


def test_a_running_minimum_and_a_condition_that_never_held_retire_no_lanes(tmp_path):
    assert not _retired(_trace_families(tmp_path, "runmin", MARCH_TASK, RUNNING_MIN).values())


# one cell per program: a 16-wide row, refined by a fixed bisection over registers only
ROW_BISECTION = HEADER + '''

@triton.jit
def membership_kernel(d_ptr, w_ptr, target, N_ITER: tl.constexpr, BK: tl.constexpr):
    cell = tl.program_id(0)
    cols = tl.arange(0, BK)
    d = tl.load(d_ptr + cell * BK + cols)
    mid = 1.0
    for _ in range(N_ITER):
        s = tl.sum(tl.exp(-d / mid), axis=0)
        mid = tl.where(s > target, mid * 0.5, mid * 1.5)
    tl.store(w_ptr + cell * BK + cols, tl.exp(-d / mid))


def run(d, target):
    w = torch.empty_like(d)
    membership_kernel[(d.shape[0],)](d, w, target, N_ITER=32, BK=16)
    return w
'''

# the same program walking its row in tiles: the loop reads memory, so the tile can grow
ROW_WALK = ROW_BISECTION.replace(
    "        s = tl.sum(tl.exp(-d / mid), axis=0)",
    "        s = tl.sum(tl.exp(-tl.load(d_ptr + cell * BK + cols) / mid), axis=0)")


def _cards(source: str, backend: str) -> set[str]:
    return {f.card_id for f in triage(source, "k.py", backend).findings}


def test_a_row_per_program_refined_in_registers_is_one_short_row_on_both_backends():
    for backend in ("cuda", "ascend"):
        cards = _cards(ROW_BISECTION, backend)
        assert "common-row-per-program" in cards and "common-block-size" not in cards, backend


def test_a_row_the_loop_reads_again_from_memory_is_no_fixed_row():
    assert "common-row-per-program" not in _cards(ROW_WALK, "ascend")


def test_a_lane_taking_its_own_slot_from_a_shared_counter_is_no_reduction():
    source = (Path(__file__).parent / "triage_fixtures" / "atomic_slot_counter_pos.py").read_text()
    cards = _cards(source, "cuda")
    assert "common-atomic-slot-counter" in cards and "cuda-atomic-reduction" not in cards
