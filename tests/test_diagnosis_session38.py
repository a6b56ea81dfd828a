"""Session 38's general readings (issue 12).

A nearest-entry search that takes every element's distance to every entry of a table and keeps
the argmin is the table scan a sorted table answers by binary search. A tl.dot whose fp32
inputs are asked for in IEEE precision says so in its IR, whatever variable carried the
precision to it, and in a task whose FLOPs would outrun the FP32 pipes that is the cost. A
select that cuts a loaded tile at a second bound (a truncated prefix) reads the rest for
nothing. An index a per-element choice between numbers makes (a bucket) is a gather, not a
stride. A loop of launches each filling the machine with a lot of traffic costs little beyond
that traffic. Neighbouring programs that each stream the same shared operand for their own row
redo that read once per row."""

from __future__ import annotations

from pathlib import Path

from diagnose.ir import attribute, capture_cuda
from diagnose.ladder import Options, _refute_cheap_launch_loop, diagnose, make_context
from diagnose.profiling.trace import run_trace, trace_findings
from diagnose.target import resolve_target
from diagnose.triage import triage
from tests.test_diagnosis_session26 import _task

HEADER = "import torch, triton, triton.language as tl\n"


def _cards(source: str, backend: str = "cuda") -> dict[str, list]:
    found: dict[str, list] = {}
    for f in triage(source, "k.py", backend).findings:
        found.setdefault(f.card_id, []).append(f)
    return found


NEAREST = HEADER + '''

@triton.jit
def _nearest(xn, code):
    dist = {distance}
    return tl.argmin(dist, axis=1)


@triton.jit
def quantize(x_ptr, code_ptr, q_ptr, n, NCODE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    code = tl.load(code_ptr + tl.arange(0, NCODE))
    xn = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(q_ptr + offs, _nearest(xn, code).to(tl.uint8), mask=offs < n)


def run(x, code):
    q = torch.empty(x.shape, dtype=torch.uint8, device=x.device)
    quantize[(triton.cdiv(x.numel(), 64),)](x, code, q, x.numel(), NCODE=256, BLOCK=64)
    return q
'''


def test_the_nearest_entry_of_a_table_by_argmin_over_every_distance_is_a_table_scan():
    for distance in ("tl.abs(xn[:, None] - code[None, :])",
                     "(xn[:, None] - code[None, :]) * (xn[:, None] - code[None, :])"):
        [scan] = _cards(NEAREST.format(distance=distance))["common-linear-table-scan"]
        assert scan.rewrite_family == "binary-search-sorted-bounds" and "nearest entry" in scan.message
    # the nearest of a few centroids in many dimensions (a sum over the features first) is no
    # one-dimensional table a binary search could bracket
    rows = NEAREST.format(distance="tl.sum(xn[:, None, :] - code[None, :, :], axis=2)")
    assert "common-linear-table-scan" not in _cards(rows)


DOT_TASK = '''
import torch
META = {"sizes": {"small": {"n": 64}, "large": {"n": 64}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(64, 64, generator=g).to(device), torch.rand(64, 64, generator=g).to(device))
def reference(a, b):
    return a @ b
def cost(size, dtype=None):
    # 2 n^3 FLOPs over 3 n^2 fp32 words: about 11 FLOP per byte, memory-bound for the tensor
    # cores and compute-bound for FMA loops
    return {"flops": 2 * 64 ** 3, "bytes": 3 * 64 * 64 * 4}
'''

DOT = HEADER + '''

@triton.jit
def mm(a, b, c, PRECISION: tl.constexpr):
    r = tl.arange(0, 64)
    x = tl.load(a + r[:, None] * 64 + r[None, :])
    y = tl.load(b + r[:, None] * 64 + r[None, :])
    tl.store(c + r[:, None] * 64 + r[None, :], tl.dot(x, y, input_precision=PRECISION))


def run(a, b):
    c = torch.empty_like(a)
    meta = {{"PRECISION": "{precision}"}}
    mm[(1,)](a, b, c, **meta, num_warps=4)
    return c
'''


def test_an_ieee_fp32_dot_names_its_cause_in_the_ir_whatever_carried_the_precision(tmp_path):
    ieee = _task(tmp_path, "ieee", DOT_TASK, DOT.format(precision="ieee"))
    [dot] = [s for s in attribute(capture_cuda(ieee)) if s.id == "dot-without-wgmma"]
    assert list(dot.mechanisms) == ["ieee-fp32-inputs"] and "IEEE" in dot.summary
    # tier 1 cannot see the precision through the dict; the IR states it, and concludes
    ctx = make_context(resolve_target(str(ieee), str(ieee / "baseline.py")), "cuda",
                       Options(max_tier=3, size="small"))
    report = diagnose(ctx).to_dict()
    assert report["concluded_tier"] == 3
    assert report["conclusion"]["rewrite_family"] == "lower-precision-dot"
    tf32 = _task(tmp_path, "tf32", DOT_TASK, DOT.format(precision="tf32"))
    assert not [s for s in attribute(capture_cuda(tf32))
                if s.id == "dot-without-wgmma" and s.mechanisms]


TRUNCATE = HEADER + '''

@triton.jit
def truncate_normalize(emb, out, H, dim, BLOCK_H: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_H)
    keep = cols.to(tl.float32) < {bound}
    x = tl.load(emb + row * H + cols, mask=cols < H, other=0.0)
    x = tl.where(keep, x, 0.0)
    y = x / tl.sqrt(tl.sum(x * x, axis=0))
    tl.store(out + row * dim + cols, y, mask=cols < dim)


def run(emb, dim):
    out = torch.empty((emb.shape[0], dim), device=emb.device, dtype=emb.dtype)
    truncate_normalize[(emb.shape[0],)](emb, out, emb.shape[1], dim, BLOCK_H=1024)
    return out
'''


def test_a_select_cutting_a_loaded_tile_at_a_second_bound_reads_the_rest_for_nothing():
    for backend in ("cuda", "ascend"):
        [cut] = _cards(TRUNCATE.format(bound="dim"), backend)["common-mask-after-load"]
        assert cut.rewrite_family == "mask-loads-not-results" and "cols" in cut.message
    # a border one element in from the load's own bound is the stencil's edge, not a part
    assert "common-mask-after-load" not in _cards(TRUNCATE.format(bound="H - 1"))


BUCKETS = HEADER + '''

@triton.jit
def rel_bias(w_ptr, out_ptr, L, H, BLOCK: tl.constexpr):
    h = tl.program_id(1)
    i = tl.program_id(0) * 16 + tl.arange(0, 16)
    j = tl.arange(0, BLOCK)
    d = (j[None, :] - i[:, None]).to(tl.float32)
    a = tl.abs(d)
    bucket = (tl.where(d > 0.0, 16.0, 0.0) + tl.where(a < 8.0, a, 8.0)).to(tl.int32)
    bias = tl.load(w_ptr + bucket * H + h)
    tl.store(out_ptr + (h * L + i[:, None]) * L + j[None, :], bias)
'''


def test_an_index_chosen_per_element_between_numbers_is_a_gather_not_a_stride():
    cards = _cards(BUCKETS, "ascend")
    assert "ascend-discrete-gather" in cards
    assert not {"ascend-transposed-tile", "ascend-strided-fast-axis"} & set(cards)
    assert "cuda-strided-fast-axis" not in _cards(BUCKETS, "cuda")
    # a clamp of the index tile keeps its lanes in order: an affine stride still
    clamped = BUCKETS.replace("bucket = (tl.where(d > 0.0, 16.0, 0.0) + tl.where(a < 8.0, a, 8.0))",
                              "bucket = tl.where(j[None, :] < L, j[None, :], 0)")
    assert "cuda-strided-fast-axis" in _cards(clamped, "cuda")


CHAIN_TASK = '''
import torch
META = {{"sizes": {{"small": {{"n": {n}}}}}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    return (torch.rand({n}, generator=torch.Generator().manual_seed(seed)).to(device),)
def reference(x):
    return x
'''

# a chain of halving passes (a mip chain), or many small launches of one slice each
CHAIN = HEADER + '''

@triton.jit
def halve(src, dst, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(dst + offs, tl.load(src + 2 * offs, mask=m, other=0.0) * 0.5, mask=m)


def run(x):
    out = torch.empty_like(x)
    src, n, at = x, x.numel(), 0
    for level in range({levels}):
        n = n // 2
        halve[(triton.cdiv(n, 1024),)](src, out[at:], n, BLOCK=1024)
        src, at = out[at:], at + n
    return out
'''


def _loop_claims(tmp_path: Path, name: str, n: int, levels: int) -> list:
    task = _task(tmp_path, name, CHAIN_TASK.format(n=n), CHAIN.format(levels=levels))
    source = (task / "baseline.py").read_text()
    result = triage(source, str(task / "baseline.py"), "cuda")
    claims = [f for f in result.findings if f.rewrite_family == "one-launch-over-grid"]
    assert claims, "the source reading claims the loop of launches could be one launch"
    report = run_trace(task, task / "baseline.py", size="small")
    _refute_cheap_launch_loop(result, report, trace_findings(report, task / "baseline.py"), "cuda")
    return claims


def test_a_few_launches_each_filling_the_machine_with_traffic_cost_little_more(tmp_path):
    # 3 passes over 64 MB: the launches' fixed cost is a few percent of the traffic's time
    for claim in _loop_claims(tmp_path, "mip", 1 << 24, 3):
        assert "add" in claim.evidence["refuted_by_trace"]


def test_many_small_launches_stay_a_launch_loop(tmp_path):
    # 10 halvings of 64 K elements: the later launches leave most SMs idle for microseconds
    assert not any("refuted_by_trace" in c.evidence for c in _loop_claims(tmp_path, "small", 1 << 16, 10))


ROWS_TASK = '''
import torch
META = {"sizes": {"small": {"m": 64}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(64, 128, generator=g).to(device), torch.rand(128, 64, generator=g).to(device))
def reference(x, w):
    return x @ w
'''

# one program per row streams the whole [128, 64] fp32 weight (32 KB) for a matvec
ROWS = HEADER + '''

@triton.jit
def row_matvec(x, w, out, K: tl.constexpr, N: tl.constexpr, BK: tl.constexpr):
    row = tl.program_id(0)
    n = tl.arange(0, N)
    acc = tl.zeros([N], dtype=tl.float32)
    for k0 in range(0, K, BK):
        k = k0 + tl.arange(0, BK)
        a = tl.load(x + row * K + k)
        b = tl.load(w + k[:, None] * N + n[None, :])
        acc += tl.sum(a[:, None] * b, axis=0)
    tl.store(out + row * N + n, acc)


def run(x, w):
    out = torch.empty((x.shape[0], w.shape[1]), device=x.device, dtype=x.dtype)
    row_matvec[(x.shape[0],)](x, w, out, K=128, N=64, BK=32)
    return out
'''


def test_programs_each_streaming_one_shared_operand_for_their_row_redo_that_read(tmp_path):
    task = _task(tmp_path, "rows", ROWS_TASK, ROWS)
    report = run_trace(task, task / "baseline.py", size="small")
    [shared] = [f for f in trace_findings(report, task / "baseline.py") if f.card_id == "cuda-matvec-per-row"]
    assert shared.rewrite_family == "tile-rows-into-dot" and "32,768 bytes" in shared.message


def test_a_span_with_an_unknown_end_is_left_out_of_the_handover_reading():
    # a sampled program whose addresses the trace could not follow has a span of [None, None]
    claim = triage(HEADER + '''
@triton.jit
def k(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y + offs, tl.load(x + offs) * 2.0)


def run(x):
    mid = torch.empty_like(x)
    out = torch.empty_like(x)
    k[(4,)](x, mid, x.numel(), BLOCK=1024)
    k[(4,)](mid, out, x.numel(), BLOCK=1024)
    return out
''', "k.py", "cuda")
    report = {"accesses": [
        {"op": "store", "launch": 0, "line": 5, "kernel": "k", "spans": [[0, 65536], [None, None], [65536, 131072]]},
        {"op": "load", "launch": 1, "line": 5, "kernel": "k", "spans": [[None, None], [0, 131072]],
         "unique_bytes": [None, 131072]}]}
    from diagnose.ladder import _refute_global_handover
    assert any(f.rewrite_family == "fuse-launches" for f in claim.findings)
    _refute_global_handover(claim, report)  # no TypeError; the followed program reads all of it
    assert all("grid-wide" in f.evidence["refuted_by_trace"] for f in claim.findings
               if f.rewrite_family == "fuse-launches")


# each launch reads a running sum, adds one frame and writes it back: the loop carries an
# accumulator through memory that one launch would keep in registers
ACCUMULATE = HEADER + '''

@triton.jit
def add_frame(x, acc, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(acc + offs, tl.load(acc + offs, mask=m, other=0.0) + tl.load(x + offs, mask=m, other=0.0), mask=m)


def run(x):
    n = x.numel() // 2
    acc = torch.zeros(n, device=x.device, dtype=x.dtype)
    for frame in range(2):
        add_frame[(triton.cdiv(n, 1024),)](x[frame * n:], acc, n, BLOCK=1024)
    return acc
'''


def test_a_loop_of_launches_carrying_a_sum_through_memory_stays_a_launch_loop(tmp_path):
    task = _task(tmp_path, "acc", CHAIN_TASK.format(n=1 << 24), ACCUMULATE)
    result = triage((task / "baseline.py").read_text(), str(task / "baseline.py"), "cuda")
    claims = [f for f in result.findings if f.rewrite_family == "one-launch-over-grid"]
    assert claims
    report = run_trace(task, task / "baseline.py", size="small")
    _refute_cheap_launch_loop(result, report, trace_findings(report, task / "baseline.py"), "cuda")
    assert not any("refuted_by_trace" in c.evidence for c in claims)
