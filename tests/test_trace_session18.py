"""Session 18's measured mechanisms: real launchers run in Triton's interpreter (the CPU trace),
and the source's claims the trace measures for itself. Each kernel has a twin the rule must
leave alone."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from diagnose.ladder import Options, make_context, tier1
from diagnose.profiling.trace import run_trace, trace_findings
from diagnose.target import resolve_target
from diagnose.triage import triage
from diagnose.weigh import rank

pytestmark = pytest.mark.xdist_group("trace")

TASK = '''
import torch

META = {"sizes": {"small": {"R": 256, "C": 512}, "large": {"R": 256, "C": 512}}, "dtypes": ["float32"]}


def make_inputs(size, device="cpu", seed=0, dtype=None):
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(s["R"], s["C"], generator=g).to(device) + 0.5,)


def reference(x):
    return x.argmax(dim=1)
'''

# One helper reads a chunk of the row; the kernel calls it in two loops (the row's maximum,
# then the first column reaching it): one line, two passes over the same bytes.
HELPER_TWICE = '''
import torch
import triton
import triton.language as tl


@triton.jit
def _chunk(row_ptr, offs, C):
    return tl.load(row_ptr + offs, mask=offs < C, other=0.0)


@triton.jit
def first_max(x_ptr, out_ptr, y_ptr, C, BLOCK: tl.constexpr, WRITE: tl.constexpr):
    row = x_ptr + tl.program_id(0) * C
    cols = tl.arange(0, BLOCK)
    best = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, C, BLOCK):
        best = tl.maximum(best, _chunk(row, start + cols, C))
    top = tl.max(best, axis=0)
    first = tl.full([BLOCK], C, dtype=tl.int32)
    for start in range(0, C, BLOCK):
        v = _chunk(row, start + cols, C)
        if WRITE:
            tl.store(y_ptr + tl.program_id(0) * C + start + cols, v / top, mask=start + cols < C)
        else:
            first = tl.minimum(first, tl.where(v == top, start + cols, C))
    tl.store(out_ptr + tl.program_id(0), tl.min(first, axis=0))


def run(x):
    out = torch.empty(x.shape[0], dtype=torch.int32, device=x.device)
    y = torch.empty_like(x)
    first_max[(x.shape[0],)](x, out, y, x.shape[1], BLOCK=64, WRITE={write})
    return out
'''

# Pairwise [32, 32] blocks kept only within a band of 16 around the diagonal: the program
# computes every block pair and a tl.where throws most of them away (no tl.dot anywhere).
PAIR_BAND = '''
import torch
import triton
import triton.language as tl


@triton.jit
def band_sum(x_ptr, out_ptr, R, C, BAND, T: tl.constexpr):
    i = tl.program_id(0) * T + tl.arange(0, T)
    xi = tl.load(x_ptr + i * C, mask=i < R, other=0.0)
    acc = tl.zeros([T], dtype=tl.float32)
    for jb in range(0, R, T):
        j = jb + tl.arange(0, T)
        xj = tl.load(x_ptr + j * C, mask=j < R, other=0.0)
        d = xi[:, None] - xj[None, :]
        w = tl.exp(-d * d) / (1.0 + d * d)
        near = tl.abs(i[:, None] - j[None, :]) < BAND
        acc += tl.sum(tl.where(near, w, 0.0), axis=1)
    tl.store(out_ptr + i, acc, mask=i < R)


def run(x):
    out = torch.empty(x.shape[0], dtype=torch.float32, device=x.device)
    band_sum[(triton.cdiv(x.shape[0], 32),)](x, out, x.shape[0], x.shape[1], {band}, T=32)
    return out
'''

# One generic column-scaling kernel launched three times over the same input.
SAME_KERNEL_THRICE = '''
import torch
import triton
import triton.language as tl


@triton.jit
def scale_rows(x_ptr, y_ptr, n, k, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + offs, x * k, mask=offs < n)


def run(x):
    outs = []
    for k in {scales}:
        y = torch.empty_like(x)
        scale_rows[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), k, BLOCK=1024)
        outs.append(y)
    return outs[0]
'''

# A large fp32 reduction, then a one-program finalize that widens its handful of sums to fp64.
FP64_FINALIZE = '''
import torch
import triton
import triton.language as tl


@triton.jit
def row_sums(x_ptr, s_ptr, C, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + tl.program_id(0) * C + cols, mask=cols < C, other=0.0)
    tl.store(s_ptr + tl.program_id(0), tl.sum(x, axis=0))


@triton.jit
def finalize(s_ptr, out_ptr, R, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    s = tl.load(s_ptr + r, mask=r < R, other=0.0).to(tl.float64)
    tl.store(out_ptr, tl.sum(s, axis=0))


def run(x):
    s = torch.empty(x.shape[0], dtype=torch.float32, device=x.device)
    out = torch.empty(1, dtype=torch.float64, device=x.device)
    row_sums[(x.shape[0],)](x, s, x.shape[1], BLOCK=512)
    finalize[(1,)](s, out, 8, BLOCK=8)
    return out
'''

# Ascend: each of 4 programs copies its rows one at a time, 1.5 KB of each 2 KB row per step.
ROW_PER_STEP = '''
import torch
import triton
import triton.language as tl

PROGRAMS = 4


@triton.jit
def copy_rows(x_ptr, y_ptr, R, C, W, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    for r in range(tl.program_id(0) * ROWS, tl.program_id(0) * ROWS + ROWS):
        tl.store(y_ptr + r * W + cols, tl.load(x_ptr + r * C + cols, mask=cols < W), mask=cols < W)


def run(x):
    y = torch.empty((x.shape[0], 384), dtype=x.dtype, device=x.device)
    copy_rows[(PROGRAMS,)](x, y, x.shape[0], x.shape[1], 384, ROWS=64, BLOCK=512)
    return y
'''

# A 2-D grid (row block, split) whose splits take every n-th block of rows: the addresses
# follow the split through the loop's start, not through an index the reading can see.
SPLIT_BLOCKS = '''
import torch
import triton
import triton.language as tl


@triton.jit
def split_copy(x_ptr, y_ptr, C, n_blocks, n_splits, BS: tl.constexpr, W: tl.constexpr):
    b = tl.program_id(0)
    split = tl.program_id(1)
    cols = tl.arange(0, W)
    for blk in range(split, n_blocks, n_splits):
        base = (b * n_blocks + blk) * BS
        for t in range(0, BS):
            tl.store(y_ptr + (base + t) * C + cols, tl.load(x_ptr + (base + t) * C + cols))


def run(x):
    y = torch.empty_like(x)
    n_blocks = x.shape[0] // (2 * 16)
    split_copy[(2, 4)](x, y, x.shape[1], n_blocks, 4, BS=16, W=512)
    return y
'''


@pytest.fixture(scope="module")
def task(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("trace18-task")
    (folder / "task.py").write_text(textwrap.dedent(TASK))
    for name, text in (("argmax_twice.py", HELPER_TWICE.replace("{write}", "False")),
                       ("scale_twice.py", HELPER_TWICE.replace("{write}", "True")),
                       ("band_narrow.py", PAIR_BAND.replace("{band}", "16")),
                       ("band_all.py", PAIR_BAND.replace("{band}", "100000")),
                       ("thrice.py", SAME_KERNEL_THRICE.replace("{scales}", "(1.0, 2.0, 3.0)")),
                       ("once.py", SAME_KERNEL_THRICE.replace("{scales}", "(2.0,)")),
                       ("fp64_finalize.py", FP64_FINALIZE),
                       ("row_per_step.py", ROW_PER_STEP),
                       ("split_blocks.py", SPLIT_BLOCKS)):
        (folder / name).write_text(textwrap.dedent(text))
    return folder


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("trace18-cache")


def _families(task: Path, name: str, cache: Path, monkeypatch, backend: str = "cuda") -> dict:
    monkeypatch.setenv("PASSWISE_CAPTURE_CACHE", str(cache))
    report = run_trace(task, task / name, size="small")
    assert report["setup_error"] is None, report.get("setup_traceback")
    return {f.rewrite_family: f for f in trace_findings(report, task / name, backend)}


def test_one_helper_called_from_two_loops_is_two_passes_over_the_row(task, cache, monkeypatch):
    """The load sits on one line of the helper; its two call sites read the same bytes. A kernel
    that stores only what it reduces wants one sweep with running statistics; one that writes
    its data back from the second pass recomputes a statistic from the data it then uses."""
    argmax = _families(task, "argmax_twice.py", cache, monkeypatch)
    online = argmax["online-row-reduction"]
    assert online.card_id == "common-two-pass-max-sum"
    assert "called from lines" in online.message and "2 times" in online.message
    assert "compute-stats-once" not in argmax
    scale = _families(task, "scale_twice.py", cache, monkeypatch)
    assert "compute-stats-once" in scale and "online-row-reduction" not in scale


def test_pairwise_blocks_a_where_throws_away_are_masked_tiles_without_a_dot(task, cache, monkeypatch):
    """No tl.dot: the pairwise block is computed and the band's where keeps no lane on most
    steps. With a band wider than the rows every step keeps lanes, and nothing is said."""
    narrow = _families(task, "band_narrow.py", cache, monkeypatch)
    masked = narrow["skip-masked-tiles"]
    facts = masked.evidence["facts"]
    assert facts["dropped_steps"] >= 0.5 * facts["steps"] and "computed for nothing" in masked.message
    assert "skip-masked-tiles" not in _families(task, "band_all.py", cache, monkeypatch)


def test_one_kernel_launched_three_times_over_one_input_is_unfused(task, cache, monkeypatch):
    """Three launches of one kernel each read x again (fewer than a launch loop's eight): two of
    the three reads are passes one launch would not make. One launch is not."""
    thrice = _families(task, "thrice.py", cache, monkeypatch)
    assert thrice["fuse-launches"].evidence["share"] >= 0.2
    assert "fuse-launches" not in _families(task, "once.py", cache, monkeypatch)


def test_fp64_in_a_one_program_finalize_weighs_by_its_launch(task, cache, monkeypatch):
    """The finalize widens every value it loads, but it loads 8 of the 131,000 values: the
    share of the fp64 finding is its launch's share of the traffic, near nothing."""
    fp64 = _families(task, "fp64_finalize.py", cache, monkeypatch)["lower-precision-math"]
    assert fp64.evidence["share"] < 0.01
    assert "weighed by its launch's traffic" in fp64.message


def test_on_ascend_one_row_per_step_wants_several_rows_a_step(task, cache, monkeypatch):
    """Each step copies 1.5 KB of a 2 KB row and the next step starts one row on: most of the
    span is touched (no pieces spaced apart), yet a bigger 1-D block cannot merge two steps."""
    found = _families(task, "row_per_step.py", cache, monkeypatch, "ascend")
    rows = found["multi-row-programs"]
    assert rows.evidence["facts"]["step"] == [2048, 1536]
    assert "block-size-tuning" not in found


def _tier1(task: Path, name: str, cache: Path, monkeypatch, backend: str):
    monkeypatch.setenv("PASSWISE_CAPTURE_CACHE", str(cache))
    ctx = make_context(resolve_target(str(task), str(task / name)), backend,
                       Options(max_tier=1, size="small", trace=True))
    return tier1(ctx)


def test_a_repeated_loop_claim_the_trace_measures_unshared_is_refuted(task, cache, monkeypatch):
    """The reading sees rows that follow grid axis 0 only and calls the splits' loops repeats;
    the trace measured neighbouring splits sharing none of their bytes."""
    first = _tier1(task, "split_blocks.py", cache, monkeypatch, "cuda")
    claims = [f for f in first.findings if f.kind == "pattern"
              and (f.evidence.get("facts") or {}).get("repeated_axis") is not None]
    assert claims, [f.card_id for f in first.findings]
    assert all("sharing 0%" in f.evidence.get("refuted_by_trace", "") for f in claims)


def test_a_grid_the_trace_measured_is_counted_once(task, cache, monkeypatch):
    """An Ascend launch of 4 programs: the source's small-grid estimate stays in the report
    and counts in the trace's look: the family's score is the better of the measure and the
    estimate (session 27), not both combined."""
    first = _tier1(task, "row_per_step.py", cache, monkeypatch, "ascend")
    underfill = [f for f in first.findings if f.rewrite_family == "split-work-across-programs"]
    traced = next(f for f in underfill if f.kind == "trace")
    source = [f for f in underfill if f.kind == "pattern"]
    assert source and all(f.evidence.get("superseded_by_trace") for f in source)
    score = next(c for c in rank([first]) if c.rewrite_family == "split-work-across-programs").score
    assert score == max([traced.confidence] + [f.confidence for f in source])


ASCEND_GRIDS = '''
import triton
import triton.language as tl

CORES = 40


@triton.jit
def rows_kernel(x_ptr, y_ptr, n_rows, C, BLOCK: tl.constexpr, STEP: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    for row in {rows}:
        tl.store(y_ptr + row * C + cols, tl.load(x_ptr + row * C + cols) * 2.0)


def run(x, y):
    n_rows, C = x.shape
    grid = ({grid},)
    rows_kernel[grid](x, y, n_rows, C, BLOCK=512, STEP=CORES)
'''


def _grid_claims(grid: str, rows: str) -> list:
    result = triage(ASCEND_GRIDS.replace("{grid}", grid).replace("{rows}", rows), "k.py", "ascend")
    return [f for f in result.findings if f.rewrite_family == "grid-size-cores"]


def test_ascend_grids_capped_at_the_cores_or_strided_by_the_program_are_not_too_large():
    """`min(CORES, n)` never exceeds the cores, and a loop from the program id stepping by a
    constant is the persistent form; a grid of one program per row is the idiom."""
    one_row = "range(tl.program_id(0), tl.program_id(0) + 1)"
    assert _grid_claims("min(CORES, n_rows)", one_row) == []
    assert _grid_claims("n_rows", "range(tl.program_id(0), n_rows, STEP)") == []
    assert _grid_claims("n_rows", one_row)


# A split-K GEMM: each of 4 programs per output tile multiplies a quarter of K and stores its
# fp32 partial; a second kernel reads the 4 partials back and sums them.
SPLIT_K_PARTIALS = '''
import torch
import triton
import triton.language as tl


@triton.jit
def partial_mm(a_ptr, b_ptr, p_ptr, M, N, K, SPLIT: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
               BK: tl.constexpr):
    pid_m, pid_n, s = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k0 in range(s * (K // SPLIT), (s + 1) * (K // SPLIT), BK):
        rk = k0 + tl.arange(0, BK)
        a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
        b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
        acc += tl.dot(a, b)
    tl.store(p_ptr + s * M * N + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def sum_partials(p_ptr, c_ptr, MN, SPLIT: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for s in range(SPLIT):
        acc += tl.load(p_ptr + s * MN + offs)
    tl.store(c_ptr + offs, acc)


def run(x):
    a = x[:, :256].contiguous()
    b = x[:256, :128].contiguous()
    M, K = a.shape
    N = b.shape[1]
    parts = torch.empty((4, M, N), dtype=torch.float32, device=x.device)
    c = torch.empty((M, N), dtype=torch.float32, device=x.device)
    partial_mm[(M // 64, N // 64, 4)](a, b, parts, M, N, K, SPLIT=4, BM=64, BN=64, BK=32)
    sum_partials[(M * N // 1024,)](parts, c, M * N, SPLIT=4, BLOCK=1024)
    return c
'''


def test_dot_partials_a_later_launch_sums_are_a_split_k(task, cache, monkeypatch):
    """The round trip through the partials buffer is the split's: the reader loads four bytes
    for each it stores. On Ascend (since session 19, its own card) the same: a cube launch's
    partials summed by a vector launch."""
    (task / "split_k.py").write_text(textwrap.dedent(SPLIT_K_PARTIALS))
    cuda = _families(task, "split_k.py", cache, monkeypatch)
    assert "drop-split-k" in cuda and "fuse-launches" not in cuda
    assert "partial tiles of a tl.dot" in cuda["drop-split-k"].message
    npu = _families(task, "split_k.py", cache, monkeypatch, "ascend")
    assert npu["drop-split-k"].card_id == "ascend-split-k-partials" and "fuse-launches" not in npu


COUNTED_TABLE = '''
import triton
import triton.language as tl


@triton.jit
def _rank(table, v):
    return tl.sum((table[None, :] <= v[:, None]).to(tl.int32), axis=1)


@triton.jit
def decode(state_ptr, cdf_ptr, out_ptr, L, BLOCK: tl.constexpr, SYMBOLS: tl.constexpr):
    lanes = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    cdf = tl.load(cdf_ptr + tl.arange(0, SYMBOLS))
    x = tl.load(state_ptr + lanes)
    for i in range(L):
        slot = x & 4095
        sym = _rank(cdf, slot)
        f = tl.load(cdf_ptr + sym)
        x = {update}
        tl.store(out_ptr + i * BLOCK + lanes, sym)


def run(state, cdf, out, L):
    decode[(1,)](state, cdf, out, L, BLOCK=128, SYMBOLS=256)
'''


def test_a_rank_counted_by_an_outer_compare_is_a_table_scan_and_a_coder_state_no_scan():
    """The whole sorted table compared with every lane at once and counted is a linear search.
    The state x = f(x) * (x >> 12) + ... is carried step to step, but its factor depends on the
    state: not a linear recurrence an associative scan could take; x = 3 * x + i is one."""
    coder = triage(COUNTED_TABLE.replace("{update}", "f * (x >> 12) + (slot - f)"), "k.py", "cuda")
    families = {f.rewrite_family for f in coder.findings}
    assert "binary-search-sorted-bounds" in families and "use-associative-scan" not in families
    linear = triage(COUNTED_TABLE.replace("{update}", "3 * x + i"), "k.py", "cuda")
    assert "use-associative-scan" in {f.rewrite_family for f in linear.findings}
