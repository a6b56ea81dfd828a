"""Session 19's measured mechanisms: lanes a mask computed from data switches off are not a block
too large, and an outer operation the trace counts as the launch's arithmetic raises the source's
claim at that line. Real launchers run in Triton's interpreter; each kernel has a twin the rule
must leave alone."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from diagnose.ladder import MEASURED_WORK_CONFIDENCE, Options, make_context, tier1
from diagnose.profiling.trace import outer_work_lines, run_trace, trace_findings
from diagnose.target import resolve_target

pytestmark = pytest.mark.xdist_group("trace")

MASK_TASK = '''
import torch

META = {"sizes": {"small": {"R": 32, "C": 1024}, "large": {"R": 32, "C": 1024}}, "dtypes": ["float32"]}


def make_inputs(size, device="cpu", seed=0, dtype=None):
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    codes = torch.randint(0, 128, (s["R"], s["C"]), generator=g, dtype=torch.int8)
    return codes.to(device), torch.rand(s["R"], s["C"], generator=g).to(device)


def reference(codes, w):
    return w * 2.0
'''

# One program per row of 1,024 lanes, about a tenth of them active: chosen by the codes the
# kernel reads (a stream that needs a word this step), or a prefix of the row (a block ten
# times wider than the row's data).
PICK = '''
import torch
import triton
import triton.language as tl


@triton.jit
def pick(x_ptr, w_ptr, out_ptr, C, BLOCK: tl.constexpr, DATA: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    if DATA:
        keep = tl.load(x_ptr + row * BLOCK + cols) > 114
    else:
        keep = cols < C
    w = tl.load(w_ptr + row * BLOCK + cols, mask=keep, other=0.0)
    tl.store(out_ptr + row * BLOCK + cols, w * 2.0, mask=keep)


def run(codes, w):
    out = torch.zeros_like(w)
    pick[(w.shape[0],)](codes, w, out, w.shape[1] // 10, BLOCK=w.shape[1], DATA={data})
    return out
'''

SCAN_TASK = '''
import torch

META = {"sizes": {"small": {"S": 256, "L": 4}, "large": {"S": 256, "L": 4}}, "dtypes": ["int32"]}


def make_inputs(size, device="cpu", seed=0, dtype=None):
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    state = torch.randint(1 << 16, 1 << 20, (s["S"],), generator=g, dtype=torch.int32)
    cdf = torch.arange(0, 4097, 16, dtype=torch.int32)
    return state.to(device), cdf.to(device), s["L"]


def reference(state, cdf, L):
    return None
'''

# The rank of each lane's slot in a sorted table, counted by comparing the whole table with
# every lane: 128 x SYMBOLS compares a step against 256 elements loaded and stored.
COUNTED = '''
import torch
import triton
import triton.language as tl


@triton.jit
def _rank(table, v):
    return tl.sum((table[None, :] <= v[:, None]).to(tl.int32), axis=1)


@triton.jit
def decode(state_ptr, cdf_ptr, out_ptr, S, L, BLOCK: tl.constexpr, SYMBOLS: tl.constexpr):
    lanes = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    cdf = tl.load(cdf_ptr + 1 + tl.arange(0, SYMBOLS))
    x = tl.load(state_ptr + lanes)
    for i in range(L):
        slot = x & 4095
        sym = _rank(cdf, slot)
        c = tl.load(cdf_ptr + sym)
        x = (x >> 4) + (slot - c)
        tl.store(out_ptr + i * S + lanes, sym)


def run(state, cdf, L):
    out = torch.empty(L * state.shape[0], dtype=torch.int32, device=state.device)
    decode[(state.shape[0] // 128,)](state, cdf, out, state.shape[0], L, BLOCK=128, SYMBOLS={symbols})
    return out
'''


@pytest.fixture(scope="module")
def tasks(tmp_path_factory) -> dict[str, Path]:
    made = {}
    for task, text, kernels in (
            ("mask", MASK_TASK, (("pick_data.py", PICK.replace("{data}", "True")),
                                 ("pick_tail.py", PICK.replace("{data}", "False")))),
            ("scan", SCAN_TASK, (("counted_256.py", COUNTED.replace("{symbols}", "256")),
                                 ("counted_16.py", COUNTED.replace("{symbols}", "16"))))):
        folder = made[task] = tmp_path_factory.mktemp(f"trace19-{task}")
        (folder / "task.py").write_text(textwrap.dedent(text))
        for name, kernel in kernels:
            (folder / name).write_text(textwrap.dedent(kernel))
    return made


@pytest.fixture(autouse=True)
def cache(tmp_path_factory, monkeypatch) -> None:
    monkeypatch.setenv("PASSWISE_CAPTURE_CACHE", str(tmp_path_factory.getbasetemp() / "trace19-cache"))


def _trace(task: Path, name: str) -> dict:
    report = run_trace(task, task / name, size="small")
    assert report["setup_error"] is None, report.get("setup_traceback")
    return report


def test_lanes_a_data_mask_switches_off_are_not_a_block_too_large(tasks):
    """Both kernels keep about a tenth of each row's lanes. The codes choose them scattered
    across the row: no block size serves the data better, and nothing is said of the block.
    A prefix of the row is a block ten times the data: said."""
    data = _trace(tasks["mask"], "pick_data.py")
    loads = [a for a in data["accesses"] if a["op"] == "load" and a["elem_bytes"] == 4]
    assert loads and sum(loads[0]["scattered_execs"]) == len(loads[0]["execs"])
    found = {f.rewrite_family for f in trace_findings(data, tasks["mask"] / "pick_data.py")}
    assert "block-size-tuning" not in found and "skip-masked-tiles" not in found
    tail = _trace(tasks["mask"], "pick_tail.py")
    assert all(not any(a["scattered_execs"]) for a in tail["accesses"])
    assert "block-size-tuning" in {f.rewrite_family for f in trace_findings(tail, tasks["mask"] / "pick_tail.py")}


def test_an_outer_compare_the_trace_counts_as_the_work_raises_the_table_scan(tasks):
    """256 table entries compared with 128 lanes a step is 128 element operations per element the
    launch moves: the claim at the helper's call is raised and says it was measured. Against 16
    entries the compare is 16 per element moved: the claim keeps its own confidence."""
    folder = tasks["scan"]
    lines = outer_work_lines(_trace(folder, "counted_256.py"))
    assert 9 in lines and 19 in lines  # the helper's line and the kernel's call of it
    assert outer_work_lines(_trace(folder, "counted_16.py")) == {}
    raised = {}
    for name in ("counted_256.py", "counted_16.py"):
        ctx = make_context(resolve_target(str(folder), str(folder / name)), "cuda",
                           Options(max_tier=1, size="small", trace=True))
        scan = [f for f in tier1(ctx).findings if f.rewrite_family == "binary-search-sorted-bounds"
                and f.kind == "pattern"]
        assert scan, name
        raised[name] = scan[0]
    assert raised["counted_256.py"].confidence == MEASURED_WORK_CONFIDENCE
    assert "bound by that arithmetic" in raised["counted_256.py"].evidence["measured_by_trace"]
    assert raised["counted_16.py"].confidence < MEASURED_WORK_CONFIDENCE
    assert "measured_by_trace" not in raised["counted_16.py"].evidence


BOX_TASK = '''
import torch

META = {"sizes": {"small": {"N": 4, "S": 64}, "large": {"N": 4, "S": 64}}, "dtypes": ["float32"]}


def make_inputs(size, device="cpu", seed=0, dtype=None):
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    boxes = torch.tensor([[2, 2, 9, 9]] * s["N"], dtype=torch.int32)
    return torch.rand(s["N"], 8, 8, generator=g).to(device), boxes.to(device), s["S"]


def reference(masks, boxes, S):
    return None
'''

# Each (row tile, column tile, box) program samples the box's 8x8 mask where the tile meets the
# box; {skip} decides whether a tile outside the box stores its zeros without the gathers.
PASTE = '''
import torch
import triton
import triton.language as tl


@triton.jit
def paste(mask_ptr, box_ptr, out_ptr, S, B: tl.constexpr):
    r = tl.program_id(2)
    x0 = tl.load(box_ptr + r * 4)
    y0 = tl.load(box_ptr + r * 4 + 1)
    rows = tl.program_id(1) * B + tl.arange(0, B)
    cols = tl.program_id(0) * B + tl.arange(0, B)
    inside = (rows[:, None] >= y0) & (rows[:, None] < y0 + 8) & (cols[None, :] >= x0) & (cols[None, :] < x0 + 8)
    dst = out_ptr + r * S * S + rows[:, None] * S + cols[None, :]
    if {skip} and (tl.program_id(1) * B >= y0 + 8 or tl.program_id(0) * B >= x0 + 8):
        tl.store(dst, tl.zeros([B, B], tl.float32))
    else:
        v = tl.load(mask_ptr + r * 64 + (rows[:, None] - y0) * 8 + (cols[None, :] - x0), mask=inside, other=0.0)
        tl.store(dst, v * 2.0)


def run(masks, boxes, S):
    out = torch.empty((masks.shape[0], S, S), dtype=torch.float32, device=masks.device)
    paste[(S // 16, S // 16, masks.shape[0])](masks, boxes, out, S, B=16)
    return out
'''

DECODE_TASK = '''
import torch

META = {"sizes": {"small": {"T": 32, "N": 256}, "large": {"T": 32, "N": 256}}, "dtypes": ["float16"]}


def make_inputs(size, device="cpu", seed=0, dtype=None):
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(s["T"] * 4, 64, generator=g).half()
    kv = torch.randn(s["N"], 64, generator=g).half()
    return q.to(device), kv.to(device)


def reference(q, kv):
    return None
'''

# Each token has 4 query rows; a program multiplies a 16-row tile by all of the shared keys:
# one token's 4 rows padded to 16 ({tokens} = 1), or 4 tokens' rows stacked ({tokens} = 4).
DECODE = '''
import torch
import triton
import triton.language as tl


@triton.jit
def scores(q_ptr, kv_ptr, out_ptr, N, TOKENS: tl.constexpr, BLOCK_N: tl.constexpr):
    r = tl.arange(0, 16)
    valid = r < 4 * TOKENS
    rows = tl.program_id(0) * 4 * TOKENS + r
    d = tl.arange(0, 64)
    q = tl.load(q_ptr + rows[:, None] * 64 + d[None, :], mask=valid[:, None], other=0.0)
    best = tl.zeros([16], tl.float32)
    for start in range(0, N, BLOCK_N):
        k = tl.load(kv_ptr + (start + tl.arange(0, BLOCK_N))[:, None] * 64 + d[None, :])
        best = tl.maximum(best, tl.max(tl.dot(q, tl.trans(k)), axis=1))
    tl.store(out_ptr + rows, best, mask=valid)


def run(q, kv):
    out = torch.empty(q.shape[0], dtype=torch.float32, device=q.device)
    scores[(q.shape[0] // (4 * {tokens}),)](q, kv, out, kv.shape[0], TOKENS={tokens}, BLOCK_N=32)
    return out
'''


@pytest.fixture(scope="module")
def more_tasks(tmp_path_factory) -> dict[str, Path]:
    made = {}
    for task, text, kernels in (
            ("box", BOX_TASK, (("paste_all.py", PASTE.replace("{skip}", "False")),
                               ("paste_skip.py", PASTE.replace("{skip}", "True")))),
            ("decode", DECODE_TASK, (("per_token.py", DECODE.replace("{tokens}", "1")),
                                     ("stacked.py", DECODE.replace("{tokens}", "4"))))):
        folder = made[task] = tmp_path_factory.mktemp(f"trace19-{task}")
        (folder / "task.py").write_text(textwrap.dedent(text))
        for name, kernel in kernels:
            (folder / name).write_text(textwrap.dedent(kernel))
    return made


def _families(folder: Path, name: str, backend: str = "cuda") -> dict:
    return {f.rewrite_family: f for f in trace_findings(_trace(folder, name), folder / name, backend)}


def test_programs_storing_a_tile_every_load_of_which_was_masked_off_skip_it(more_tasks):
    """A 64x64 image, 16x16 tiles, an 8x8 box near the corner: most sampled tile programs gather
    nothing and store zeros the long way. A kernel that tests the tile's bounds first and stores
    the zeros directly makes no masked gathers there."""
    blind = _families(more_tasks["box"], "paste_all.py")["skip-masked-tiles"]
    assert blind.evidence["facts"]["blind_programs"] >= blind.evidence["facts"]["programs"] / 2
    assert "every lane of their loads" in blind.message
    assert "skip-masked-tiles" not in _families(more_tasks["box"], "paste_skip.py")


def test_decode_programs_streaming_the_same_tiles_for_a_few_rows_want_rows_stacked(more_tasks):
    """One token's 4 rows padded to a 16-row tile, each program streaming all 256 shared keys
    that its neighbour streams too: stack the rows. With four tokens' rows filling the tile
    nothing is said (a tile of full rows is the block size's question, not this one)."""
    found = _families(more_tasks["decode"], "per_token.py")["tile-rows-into-dot"]
    assert found.evidence["facts"]["rows"] == 16 and found.card_id == "cuda-matvec-per-row"
    assert "tile-rows-into-dot" not in _families(more_tasks["decode"], "stacked.py")


def test_a_scaled_dot_that_is_not_accumulated_is_no_loop_invariant_work():
    """`acc += tl.dot(a, b) * s` scales the accumulator every step (scale once after the loop);
    `qk = tl.dot(q, k) * s` is a new score tile each step, with no accumulator to scale later."""
    from diagnose.triage import triage

    src = '''
import triton
import triton.language as tl


@triton.jit
def k(a_ptr, b_ptr, out_ptr, s, K, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK, BLOCK], tl.float32)
    for start in range(0, K, BLOCK):
        a = tl.load(a_ptr + offs[:, None] * K + start + offs[None, :])
        b = tl.load(b_ptr + (start + offs)[:, None] * BLOCK + offs[None, :])
        {line}
    tl.store(out_ptr + offs[:, None] * BLOCK + offs[None, :], acc)
'''
    accumulated = triage(src.replace("{line}", "acc += tl.dot(a, b) * s"), "k.py", "cuda")
    assert "hoist-loop-invariants" in {f.rewrite_family for f in accumulated.findings}
    fresh = triage(src.replace("{line}", "qk = tl.dot(a, b) * s\n        acc = tl.maximum(acc, qk)"),
                   "k.py", "cuda")
    assert "hoist-loop-invariants" not in {f.rewrite_family for f in fresh.findings}


COLUMNS = '''
import torch
import triton
import triton.language as tl


@triton.jit
def column_sums(x_ptr, w_ptr, out_ptr, R, C: tl.constexpr, ROWS: tl.constexpr):
    col = tl.program_id(0)
    v = tl.load(w_ptr + tl.arange(0, ROWS) * C + col)
    tl.store(out_ptr + col, tl.sum(v, axis=0))


def run(codes, w):
    out = torch.empty(w.shape[1], dtype=torch.float32, device=w.device)
    column_sums[(w.shape[1],)](codes, w, out, w.shape[0], C=w.shape[1], ROWS=w.shape[0])
    return out
'''


def test_on_ascend_a_strided_tile_is_weighed_by_its_element_transfers(tasks):
    """A column of 32 values 4 KB apart: on a GPU it is its bytes' sectors; on the NPU each
    element is a transfer of its own, so the finding is weighed in time, above its byte share."""
    folder = tasks["mask"]
    (folder / "columns.py").write_text(textwrap.dedent(COLUMNS))
    report = _trace(folder, "columns.py")
    cuda = {f.rewrite_family: f for f in trace_findings(report, folder / "columns.py", "cuda")}
    npu = {f.rewrite_family: f for f in trace_findings(report, folder / "columns.py", "ascend")}
    strided = npu["coalesce-contiguous-axis"]
    assert strided.card_id == "ascend-strided-fast-axis" and strided.evidence["facts"]["weighed"] == "time"
    assert "one element per transfer" in strided.message
    assert strided.evidence["share"] > cuda["coalesce-contiguous-axis"].evidence["share"]


def test_a_dot_upcast_to_a_dtype_named_by_a_constexpr_is_an_fp32_dot():
    """`.to(COMPUTE)` inside a helper, COMPUTE passed by the kernel, launched with a module
    constant that is tl.float32: the operands are widened before the dot. Launched with
    tl.bfloat16 they are not."""
    from diagnose.triage import triage

    src = '''
import triton
import triton.language as tl

COMPUTE_DTYPE = {dtype}


@triton.jit
def _step(acc, a, b, COMPUTE: tl.constexpr):
    return tl.dot(a.to(COMPUTE), b.to(COMPUTE), acc)


@triton.jit
def mm(a_ptr, b_ptr, c_ptr, K, BLOCK: tl.constexpr, COMPUTE: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK, BLOCK], tl.float32)
    for k in range(0, K, BLOCK):
        a = tl.load(a_ptr + offs[:, None] * K + k + offs[None, :])
        b = tl.load(b_ptr + (k + offs)[:, None] * BLOCK + offs[None, :])
        acc = _step(acc, a, b, COMPUTE)
    tl.store(c_ptr + offs[:, None] * BLOCK + offs[None, :], acc)


def run(a, b, c):
    mm[(1,)](a, b, c, a.shape[1], BLOCK=64, COMPUTE=COMPUTE_DTYPE)
'''
    for backend in ("cuda", "ascend"):
        wide = triage(src.replace("{dtype}", "tl.float32"), "k.py", backend)
        assert "lower-precision-dot" in {f.rewrite_family for f in wide.findings}, backend
        narrow = triage(src.replace("{dtype}", "tl.bfloat16"), "k.py", backend)
        assert "lower-precision-dot" not in {f.rewrite_family for f in narrow.findings}, backend


SAMPLE_TASK = '''
import torch

META = {"sizes": {"small": {"R": 4, "V": 4096}, "large": {"R": 4, "V": 4096}}, "dtypes": ["float32"]}


def make_inputs(size, device="cpu", seed=0, dtype=None):
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    probs = torch.rand(s["R"], s["V"], generator=g)
    return (probs / probs.sum(1, keepdim=True)).to(device), torch.rand(s["R"], generator=g).to(device)


def reference(probs, u):
    return None
'''

# Inverse-CDF sampling: the row's position where the running mass passes u, found by adding one
# probability per step in a while loop (a prefix sum searched element by element).
SAMPLE = '''
import torch
import triton
import triton.language as tl


@triton.jit
def sample(p_ptr, u_ptr, out_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    target = tl.load(u_ptr + row) * tl.sum(tl.load(p_ptr + row * V + tl.arange(0, BLOCK)), axis=0)
    i = 0
    running = 0.0
    while (i < V) & (running < target):
        running += tl.load(p_ptr + row * V + i)
        i += 1
    tl.store(out_ptr + row, i - 1)


def run(probs, u):
    out = torch.empty(probs.shape[0], dtype=torch.int32, device=probs.device)
    sample[(probs.shape[0],)](probs, u, out, probs.shape[1], BLOCK=probs.shape[1])
    return out
'''


def test_a_prefix_sum_searched_element_by_element_is_a_scan_the_trace_measures_in_latency(tasks):
    """The while loop adds one loaded probability per step until it passes the target: the
    source names a scan; the trace counts about 2,000 dependent one-element loads a program,
    far longer than the row's bytes take, and raises the claim above 0.8."""
    folder = tasks["scan"].parent / "trace19-sample"
    folder.mkdir(exist_ok=True)
    (folder / "task.py").write_text(textwrap.dedent(SAMPLE_TASK))
    (folder / "sample.py").write_text(textwrap.dedent(SAMPLE))
    ctx = make_context(resolve_target(str(folder), str(folder / "sample.py")), "cuda",
                       Options(max_tier=1, size="small", trace=True))
    scan = [f for f in tier1(ctx).findings if f.kind == "pattern" and f.rewrite_family == "use-associative-scan"]
    assert scan and "prefix sum one element per step" in scan[0].message
    assert scan[0].confidence > MEASURED_WORK_CONFIDENCE
    assert "one-element loads a program" in scan[0].evidence["measured_by_trace"]


def test_squared_distances_over_a_broadcast_difference_are_a_matrix_product():
    """tl.sum(d * d, axis=2) with d = a[:, None, :] - b[None, :, :] expands to |a|^2 - 2 a.b +
    |b|^2: a product for tl.dot. Summing |d| (no square) is not one."""
    from diagnose.triage import triage

    src = '''
import triton
import triton.language as tl


@triton.jit
def _dist(a, b):
    d = a[:, None, :] - b[None, :, :]
    return tl.sum({term}, axis=2)


@triton.jit
def nearest(x_ptr, c_ptr, out_ptr, K, BT: tl.constexpr, BK: tl.constexpr, D: tl.constexpr):
    offs_d = tl.arange(0, D)
    x = tl.load(x_ptr + (tl.program_id(0) * BT + tl.arange(0, BT))[:, None] * D + offs_d[None, :])
    best = tl.full([BT], float("inf"), tl.float32)
    for k0 in range(0, K, BK):
        c = tl.load(c_ptr + (k0 + tl.arange(0, BK))[:, None] * D + offs_d[None, :])
        best = tl.minimum(best, tl.min(_dist(x, c), axis=1))
    tl.store(out_ptr + tl.program_id(0) * BT + tl.arange(0, BT), best)
'''
    for term, expected in (("d * d", True), ("d ** 2", True), ("tl.abs(d)", False)):
        found = triage(src.replace("{term}", term), "k.py", "cuda")
        assert ("use-dot-for-broadcast-sum" in {f.rewrite_family for f in found.findings}) == expected, term


ROWS_TASK = '''
import torch

META = {"sizes": {"small": {"R": 256, "C": 512}, "large": {"R": 256, "C": 512}}, "dtypes": ["float32"]}


def make_inputs(size, device="cpu", seed=0, dtype=None):
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(s["R"], s["C"], generator=g).to(device),)


def reference(x):
    return None
'''

# Three statistics of every row, one launch each in a loop: every launch reads all of x again
# ({slices} = False); or one launch per third of the rows, each reading its own slice.
STATS_LOOP = '''
import torch
import triton
import triton.language as tl


@triton.jit
def row_stat(x_ptr, out_ptr, C, R, MODE: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * C + offs, mask=offs < C, other=0.0)
    if MODE == 0:
        v = tl.sum(x, axis=0)
    elif MODE == 1:
        v = tl.max(x, axis=0)
    else:
        v = tl.min(x, axis=0)
    tl.store(out_ptr + MODE * R + row, v)


def run(x):
    R, C = x.shape
    out = torch.empty((3, R), dtype=x.dtype, device=x.device)
    for mode in range(3):
        if {slices}:
            part = x[mode * (R // 3):(mode + 1) * (R // 3)]
            row_stat[(part.shape[0],)](part, out, C, R, MODE=0, BLOCK=512)
        else:
            row_stat[(R,)](x, out, C, R, MODE=mode, BLOCK=512)
    return out
'''


def test_a_launch_loop_whose_launches_reread_one_input_is_unfused_passes(tmp_path_factory):
    """Three launches in a Python loop, each reading every row of x for another statistic: the
    trace measures each launch re-reading what the one before read, so the confirmed loop takes
    the form of passes one fused kernel makes once. Launches over thirds of the rows are not."""
    from diagnose.ladder import diagnose

    folder = tmp_path_factory.mktemp("trace19-stats")
    (folder / "task.py").write_text(textwrap.dedent(ROWS_TASK))
    families = {}
    for name, slices in (("modes.py", "False"), ("slices.py", "True")):
        (folder / name).write_text(textwrap.dedent(STATS_LOOP.replace("{slices}", slices)))
        d = diagnose(make_context(resolve_target(str(folder), str(folder / name)), "cuda",
                                  Options(max_tier=3, size="small", trace=True)))
        families[name] = d.conclusion.rewrite_family if d.conclusion else None
    assert families["modes.py"] == "fuse-launches"
    assert families["slices.py"] != "fuse-launches"
