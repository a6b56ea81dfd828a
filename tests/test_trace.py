"""Tier 1's CPU trace: real launchers run in Triton's interpreter with a few programs per launch;
the hypotheses come from the addresses those programs touch, however the source spells them."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from diagnose.consistency import problems
from diagnose.evidence import Finding, TierResult
from diagnose.ladder import Options, answer_misses_the_cost, diagnose, make_context, tier1
from diagnose.profiling.trace import ASCEND_TWINS, TraceError, run_trace, trace_findings
from diagnose.target import resolve_target
from diagnose.triage import load_cards

pytestmark = pytest.mark.xdist_group("trace")

TASK = '''
import torch

META = {"sizes": {"small": {"R": 1024, "C": 512}, "large": {"R": 1024, "C": 512}}, "dtypes": ["float32"]}


def make_inputs(size, device="cpu", seed=0, dtype=None):
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(s["R"], s["C"], generator=g).to(device),)


def reference(x):
    return x.sum(dim=0)
'''

# The column sums, walked down each column through a stride that reaches the kernel in a
# tuple unpacked by a helper: no detector has to read that spelling for the trace to see it.
COLUMN_WALK = '''
import torch
import triton
import triton.language as tl


@triton.jit
def col_sum(x_ptr, out_ptr, R, stride_r, BLOCK_R: tl.constexpr):
    col = tl.program_id(0)
    rows = tl.arange(0, BLOCK_R)
    x = tl.load(x_ptr + rows * stride_r + col, mask=rows < R, other=0.0)
    tl.store(out_ptr + col, tl.sum(x, axis=0))


def _strides(t):
    return tuple(t.stride())


def run(x):
    out = torch.empty(x.shape[1], dtype=x.dtype, device=x.device)
    sr, _ = _strides(x)
    col_sum[(x.shape[1],)](x, out, x.shape[0], sr, BLOCK_R=64)
    return out
'''

ROW_TILES = '''
import torch
import triton
import triton.language as tl


@triton.jit
def col_sum(x_ptr, out_ptr, R, C, BLOCK_C: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_C + tl.arange(0, BLOCK_C)
    acc = tl.zeros([BLOCK_C], dtype=tl.float32)
    for r in range(0, R):
        acc += tl.load(x_ptr + r * C + cols, mask=cols < C, other=0.0)
    tl.store(out_ptr + cols, acc, mask=cols < C)


def run(x):
    out = torch.empty(x.shape[1], dtype=x.dtype, device=x.device)
    col_sum[(triton.cdiv(x.shape[1], 128),)](x, out, x.shape[0], x.shape[1], BLOCK_C=128)
    return out
'''

# Three costs around the launches: a zero fill the kernel only stores over, one launch per
# row from a Python loop, and every lane's atomic sent to one word.
HOST_AND_ATOMICS = '''
import torch
import triton
import triton.language as tl


@triton.jit
def row_pass(x_ptr, y_ptr, total_ptr, row, C, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < C
    x = tl.load(x_ptr + row * C + offs, mask=m, other=0.0)
    tl.store(y_ptr + row * C + offs, x * 2.0, mask=m)
    tl.atomic_add(total_ptr + offs * 0, x, mask=m)


def run(x):
    y = torch.zeros_like(x)
    total = torch.zeros(1, dtype=x.dtype, device=x.device)
    for row in range(x.shape[0]):
        row_pass[(1,)](x, y, total, row, x.shape[1], BLOCK=512)
    return y.sum(dim=0) * 0 + total
'''


# A first-order recurrence down each row, one element per step with the carry in a scalar:
# the IR shows narrow loads (tier 1's element-loop idiom, confirmed by tier 3), the run shows
# what the steps are, a recurrence that an associative scan does in log steps.
RECURRENCE = '''
import torch
import triton
import triton.language as tl


@triton.jit
def ema_rows(x_ptr, out_ptr, C, decay):
    row = tl.program_id(0)
    h = 0.0
    for t in range(0, C):
        h = decay * h + tl.load(x_ptr + row * C + t)
        tl.store(out_ptr + row * C + t, h)


def run(x):
    out = torch.empty_like(x)
    ema_rows[(x.shape[0],)](x, out, x.shape[1], 0.9)
    return out.sum(dim=0)
'''


# Rows summed into groups of 16 by atomics at a loaded group id: with the ids sorted, every
# group's rows sit together (a segment reduction written as a scatter); shuffled, they do not.
SEGMENT_ATOMICS = '''
import torch
import triton
import triton.language as tl

SHUFFLE = {shuffle}


@triton.jit
def group_sum(x_ptr, key_ptr, out_ptr, R, C, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    cols = tl.arange(0, BLOCK_C)
    m = (rows < R)[:, None] & (cols < C)[None, :]
    key = tl.load(key_ptr + rows, mask=rows < R, other=0)
    x = tl.load(x_ptr + rows[:, None] * C + cols[None, :], mask=m, other=0.0)
    tl.atomic_add(out_ptr + key[:, None] * C + cols[None, :], x, mask=m)


def run(x):
    R, C = x.shape
    key = torch.arange(R, device=x.device) // 16
    if SHUFFLE:
        key = key[torch.randperm(R, generator=torch.Generator().manual_seed(1))].to(x.device)
    out = torch.zeros(R // 16, C, dtype=x.dtype, device=x.device)
    group_sum[(triton.cdiv(R, 64),)](x, key, out, R, C, BLOCK_R=64, BLOCK_C=512)
    return out.sum(dim=0)
'''


# Each (row, tile) program first loops over its whole 32 KB row for the row's sum, then scales
# its own tile: the 64 tiles of a row redo the same pass.
TILE_RECOMPUTES_ROW = '''
import torch
import triton
import triton.language as tl


@triton.jit
def scale_tiles(x_ptr, y_ptr, C, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, C, BLOCK):
        acc += tl.load(x_ptr + row * C + start + tl.arange(0, BLOCK))
    total = tl.sum(acc, axis=0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + row * C + cols, tl.load(x_ptr + row * C + cols) / total)


def run(x):
    rows = x.reshape(64, -1)
    y = torch.empty_like(rows)
    scale_tiles[(64, rows.shape[1] // 128)](rows, y, rows.shape[1], BLOCK=128)
    return y.reshape(x.shape).sum(dim=0)
'''


# A count kernel, then the launcher reads every row's count back (one .item() per row) only to
# size the second kernel's block: 1,024 round trips around two kernels of a few microseconds.
# Both kernels also read x, so a fused-launch idiom is there too; READS picks the loop or one read.
READ_BACK = '''
import torch
import triton
import triton.language as tl


@triton.jit
def row_count(x_ptr, cnt_ptr, C, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * C + cols, mask=cols < C, other=0.0)
    tl.store(cnt_ptr + row, tl.sum((x > 0).to(tl.int32), axis=0))


@triton.jit
def kept_sum(x_ptr, cnt_ptr, out_ptr, C, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    n = tl.load(cnt_ptr + row)
    x = tl.load(x_ptr + row * C + cols, mask=cols < C, other=0.0)
    tl.store(out_ptr + row, tl.sum(tl.where(cols < n, x, 0.0), axis=0))


def run(x):
    R, C = x.shape
    cnt = torch.zeros(R, dtype=torch.int32, device=x.device)
    row_count[(R,)](x, cnt, C, BLOCK=512)
    if {loop}:
        longest = 1
        for r in range(R):
            longest = max(longest, int(cnt[r].item()))
    else:
        longest = max(1, int(cnt.max().item()))
    out = torch.empty(R, dtype=x.dtype, device=x.device)
    kept_sum[(R,)](x, cnt, out, C, BLOCK=triton.next_power_of_2(min(longest, C)))
    return out
'''


# Each row's program sums its 2 KB row in one loop, then reads it again to scale it, with its
# offsets widened to int64: the int64 arithmetic is real but costs instructions; the second
# read is a third of the traffic.
TWO_PASSES_INT64 = '''
import torch
import triton
import triton.language as tl


@triton.jit
def scale_rows(x_ptr, y_ptr, C, BLOCK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * C
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, C, BLOCK):
        acc += tl.load(x_ptr + base + start + tl.arange(0, BLOCK))
    total = tl.sum(acc, axis=0)
    for start in range(0, C, BLOCK):
        cols = base + start + tl.arange(0, BLOCK)
        tl.store(y_ptr + cols, tl.load(x_ptr + cols) / total)


def run(x):
    y = torch.empty_like(x)
    scale_rows[(x.shape[0],)](x, y, x.shape[1], BLOCK=512)
    return y.sum(dim=0)
'''


# Each row's program multiplies its row with every row of the same matrix (a Gram row) by a
# broadcast product and a sum: every program streams the whole shared matrix.
ROW_MATVEC = '''
import torch
import triton
import triton.language as tl


@triton.jit
def gram_row_max(x_ptr, out_ptr, R, C: tl.constexpr, BLOCK_R: tl.constexpr):
    i = tl.program_id(0)
    cols = tl.arange(0, C)
    xi = tl.load(x_ptr + i * C + cols)
    best = -float("inf")
    for start in range(0, R, BLOCK_R):
        rows = start + tl.arange(0, BLOCK_R)
        xj = tl.load(x_ptr + rows[:, None] * C + cols[None, :], mask=rows[:, None] < R, other=0.0)
        best = tl.maximum(best, tl.max(tl.sum(xj * xi[None, :], axis=1), axis=0))
    tl.store(out_ptr + i, best)


def run(x):
    out = torch.empty(x.shape[0], dtype=x.dtype, device=x.device)
    gram_row_max[(x.shape[0],)](x, out, x.shape[0], C=x.shape[1], BLOCK_R=32)
    return out
'''


# One program per row adds its row into its group's row, the group read as one integer per
# program: sorted groups (16 rows each) or the same groups shuffled.
ROW_KEY_ATOMICS = '''
import torch
import triton
import triton.language as tl

SHUFFLE = {shuffle}


@triton.jit
def row_group_sum(x_ptr, key_ptr, out_ptr, C, BLOCK_C: tl.constexpr):
    row = tl.program_id(0)
    key = tl.load(key_ptr + row)
    cols = tl.arange(0, BLOCK_C)
    x = tl.load(x_ptr + row * C + cols, mask=cols < C, other=0.0)
    tl.atomic_add(out_ptr + key * C + cols, x, mask=cols < C)


def run(x):
    R, C = x.shape
    key = torch.arange(R, device=x.device) // 16
    if SHUFFLE:
        key = key[torch.randperm(R, generator=torch.Generator().manual_seed(1))].to(x.device)
    out = torch.zeros(R // 16, C, dtype=x.dtype, device=x.device)
    row_group_sum[(R,)](x, key, out, C, BLOCK_C=512)
    return out.sum(dim=0)
'''


# A crop of every row decoded from a flat index with // and %: the row stride multiplies the
# slow index, so neighbouring lanes read neighbouring columns; the source idiom for a strided
# fast axis fires on the `* W` all the same.
FLAT_CROP = '''
import torch
import triton
import triton.language as tl


@triton.jit
def crop_cols(x_ptr, out_ptr, total, OW, H, W, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    ow = offs % OW
    oh = (offs // OW) % H
    n = offs // (OW * H)
    v = tl.load(x_ptr + (n * H + oh) * W + ow + 1, mask=mask, other=0.0)
    tl.store(out_ptr + offs, v, mask=mask)


def run(x):
    R, C = x.shape
    out = torch.empty(R, C - 2, dtype=x.dtype, device=x.device)
    total = out.numel()
    crop_cols[(triton.cdiv(total, 1024),)](x, out, total, C - 2, 16, C, BLOCK=1024)
    return out.sum(dim=0)
'''


# Each program copies one 256 KB span of the flat input in tiles of TILE bytes (uint8 view):
# 1 KB tiles take 256 steps a program, 16 KB tiles 16.
SPAN_COPY = '''
import torch
import triton
import triton.language as tl


@triton.jit
def span_copy(src_ptr, dst_ptr, SPAN: tl.constexpr, TILE: tl.constexpr):
    base = tl.program_id(0) * SPAN
    offs = tl.arange(0, TILE)
    for i in range(0, SPAN, TILE):
        tl.store(dst_ptr + base + i + offs, tl.load(src_ptr + base + i + offs))


def run(x):
    flat = x.contiguous().view(torch.uint8).reshape(-1)
    out = torch.empty_like(flat)
    span_copy[(flat.numel() // 262144,)](flat, out, SPAN=262144, TILE={tile})
    return out.view(x.dtype).reshape(x.shape).sum(dim=0)
'''

# Row sums of the [1024, 512] input, one program per CHUNK columns of a row: with 32 columns each
# of the 16,384 programs reads 128 bytes once; with the whole row, 1,024 programs read 2 KB.
ROW_CHUNKS = '''
import torch
import triton
import triton.language as tl


@triton.jit
def chunk_sums(x_ptr, out_ptr, C, CHUNK: tl.constexpr):
    pid = tl.program_id(0)
    per_row = C // CHUNK
    row, part = pid // per_row, pid % per_row
    cols = part * CHUNK + tl.arange(0, CHUNK)
    tl.store(out_ptr + pid, tl.sum(tl.load(x_ptr + row * C + cols), axis=0))


def run(x):
    R, C = x.shape
    out = torch.empty(R * (C // {chunk}), dtype=x.dtype, device=x.device)
    chunk_sums[(R * (C // {chunk}),)](x, out, C, CHUNK={chunk})
    return out
'''


# Block prefix sums of the flattened input: program p sums blocks 0..p (a walk that grows with
# the program's position) or only its own block p (a walk of one step).
BLOCK_PREFIX = '''
import torch
import triton
import triton.language as tl


@triton.jit
def block_prefix(x_ptr, out_ptr, BLOCK: tl.constexpr):
    p = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for b in range({start}, p + 1):
        acc += tl.load(x_ptr + b * BLOCK + tl.arange(0, BLOCK))
    tl.store(out_ptr + p * BLOCK + tl.arange(0, BLOCK), acc)


def run(x):
    flat = x.reshape(-1)
    out = torch.empty_like(flat)
    block_prefix[(flat.numel() // 4096,)](flat, out, BLOCK=4096)
    return out
'''


# Each program walks 16 steps of 4 KB but only its first step holds data (a loop to the longest
# sequence, most sequences one tile long): 15 of 16 steps move nothing.
PADDED_STEPS = '''
import torch
import triton
import triton.language as tl


@triton.jit
def padded_sums(x_ptr, out_ptr, LIMIT, BLOCK: tl.constexpr, STEPS: tl.constexpr):
    pid = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(STEPS):
        offs = i * BLOCK + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + pid * BLOCK + offs, mask=offs < LIMIT, other=0.0)
    tl.store(out_ptr + pid * BLOCK + tl.arange(0, BLOCK), acc)


def run(x):
    flat = x.reshape(-1)
    out = torch.empty_like(flat)
    padded_sums[(flat.numel() // 1024,)](flat, out, 1024, BLOCK=1024, STEPS=16)
    return out
'''


# Row sums of the [1024, 512] input on eight programs, each taking every eighth row one 2 KB row
# per loop step: the steps touch rows spaced apart, so no bigger block merges two of them.
GRID_STRIDED_ROWS = '''
import torch
import triton
import triton.language as tl


@triton.jit
def strided_row_sums(x_ptr, out_ptr, R, C: tl.constexpr, PROGS: tl.constexpr):
    cols = tl.arange(0, C)
    for row in range(tl.program_id(0), R, PROGS):
        tl.store(out_ptr + row, tl.sum(tl.load(x_ptr + row * C + cols), axis=0))


def run(x):
    R, C = x.shape
    out = torch.empty(R, dtype=x.dtype, device=x.device)
    strided_row_sums[(8,)](x, out, R, C=C, PROGS=8)
    return out
'''

# fp64 over every element of the column tile, or only on the column's sum (one value per
# program, as an exact accumulator of partial sums is written): the same cast, not the same math
FP64_COLUMNS = '''
import torch
import triton
import triton.language as tl


@triton.jit
def col_sum64(x_ptr, out_ptr, R, C, BLOCK_R: tl.constexpr):
    col = tl.program_id(0)
    rows = tl.arange(0, BLOCK_R)
    x = tl.load(x_ptr + rows * C + col, mask=rows < R, other=0.0)
    {body}


def run(x):
    out = torch.zeros(x.shape[1], dtype=torch.float64, device=x.device)
    col_sum64[(x.shape[1],)](x, out, x.shape[0], x.shape[1], BLOCK_R=1024)
    return out.to(x.dtype)
'''


# a key loop over every tile that keeps only the last 64 rows (a window the range ignores), or
# the same loop started at the window: the first throws most steps' dots away
WINDOW_SCAN = '''
import torch
import triton
import triton.language as tl


@triton.jit
def window_max(x_ptr, out_ptr, R, C, BLOCK: tl.constexpr, D: tl.constexpr):
    p = tl.program_id(0)
    rows = tl.arange(0, BLOCK)
    d = tl.arange(0, D)
    q = tl.load(x_ptr + (p * BLOCK + rows)[:, None] * C + d[None, :])
    best = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    lo = R - 64
    for start in range({start}, R, BLOCK):
        pos = start + rows
        k = tl.load(x_ptr + pos[:, None] * C + d[None, :])
        s = tl.where((pos >= lo)[None, :], tl.dot(q, tl.trans(k)), float("-inf"))
        best = tl.maximum(best, tl.max(s, axis=1))
    tl.store(out_ptr + p * BLOCK + rows, best)


def run(x):
    out = torch.empty(x.shape[0], dtype=x.dtype, device=x.device)
    window_max[(x.shape[0] // 16,)](x, out, x.shape[0], x.shape[1], BLOCK=16, D=64)
    return out
'''


@pytest.fixture(scope="module")
def task(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("trace-task")
    (folder / "task.py").write_text(textwrap.dedent(TASK))
    for name, text in (("walk.py", COLUMN_WALK), ("rows.py", ROW_TILES), ("host.py", HOST_AND_ATOMICS),
                       ("ema.py", RECURRENCE),
                       ("sorted_keys.py", SEGMENT_ATOMICS.replace("{shuffle}", "False")),
                       ("shuffled_keys.py", SEGMENT_ATOMICS.replace("{shuffle}", "True")),
                       ("tiles.py", TILE_RECOMPUTES_ROW),
                       ("read_loop.py", READ_BACK.replace("{loop}", "True")),
                       ("read_once.py", READ_BACK.replace("{loop}", "False")),
                       ("two_passes.py", TWO_PASSES_INT64),
                       ("gram.py", ROW_MATVEC),
                       ("row_keys_sorted.py", ROW_KEY_ATOMICS.replace("{shuffle}", "False")),
                       ("row_keys_shuffled.py", ROW_KEY_ATOMICS.replace("{shuffle}", "True")),
                       ("crop.py", FLAT_CROP),
                       ("copy_1k.py", SPAN_COPY.replace("{tile}", "1024")),
                       ("copy_16k.py", SPAN_COPY.replace("{tile}", "16384")),
                       ("chunks_32.py", ROW_CHUNKS.replace("{chunk}", "32")),
                       ("chunks_512.py", ROW_CHUNKS.replace("{chunk}", "512")),
                       ("strided_rows.py", GRID_STRIDED_ROWS),
                       ("padded.py", PADDED_STEPS),
                       ("prefix_walk.py", BLOCK_PREFIX.replace("{start}", "0")),
                       ("own_block.py", BLOCK_PREFIX.replace("{start}", "p")),
                       ("window_all.py", WINDOW_SCAN.replace("{start}", "0")),
                       ("window_own.py", WINDOW_SCAN.replace("{start}", "lo")),
                       ("running_min.py", WINDOW_SCAN.replace("{start}", "0").replace(
                           'best = tl.full([BLOCK], float("-inf"), dtype=tl.float32)',
                           "best = tl.sum(q, axis=1)").replace(
                           's = tl.where((pos >= lo)[None, :], tl.dot(q, tl.trans(k)), float("-inf"))\n'
                           '        best = tl.maximum(best, tl.max(s, axis=1))',
                           "m = tl.max(tl.dot(q, tl.trans(k)), axis=1)\n"
                           "        best = tl.where(m < best - 1e9, m, best)")),
                       ("fp64_all.py", FP64_COLUMNS.replace(
                           "{body}", "tl.store(out_ptr + col, tl.sum(x.to(tl.float64) * 1.5, axis=0))")),
                       ("fp64_once.py", FP64_COLUMNS.replace(
                           "{body}", "tl.store(out_ptr + col, tl.sum(x, axis=0).to(tl.float64) * 1.5)"))):
        (folder / name).write_text(textwrap.dedent(text))
    return folder


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("trace-cache")


def _families(task: Path, name: str, cache: Path, monkeypatch) -> dict[str, object]:
    monkeypatch.setenv("PASSWISE_CAPTURE_CACHE", str(cache))
    report = run_trace(task, task / name, size="small")
    assert report["setup_error"] is None, report.get("setup_traceback")
    return {f.rewrite_family: f for f in trace_findings(report, task / name)}


def test_column_walk_is_seen_through_a_helper_and_its_row_twin_is_not(task, cache, monkeypatch):
    walk = _families(task, "walk.py", cache, monkeypatch)
    assert "coalesce-contiguous-axis" in walk
    finding = walk["coalesce-contiguous-axis"]
    assert finding.location["line"] and finding.evidence["facts"]["efficiency"] <= 0.5
    assert finding.evidence["facts"]["strides"] == [512]
    rows = _families(task, "rows.py", cache, monkeypatch)
    assert "coalesce-contiguous-axis" not in rows


def test_host_fill_launch_loop_and_funnelled_atomics(task, cache, monkeypatch):
    found = _families(task, "host.py", cache, monkeypatch)
    assert {"allocate-empty-output", "one-launch-over-grid",
            "tree-reduction-not-atomics"} <= set(found)
    assert found["one-launch-over-grid"].evidence["facts"]["launches"] == 1024
    # the fixes' shape: the row-tiled twin has none of these costs
    assert not {"allocate-empty-output", "one-launch-over-grid",
                "tree-reduction-not-atomics"} & set(_families(task, "rows.py", cache, monkeypatch))


def test_ladder_adds_trace_findings_beside_the_patterns(task, cache, monkeypatch):
    monkeypatch.setenv("PASSWISE_CAPTURE_CACHE", str(cache))
    ctx = make_context(resolve_target(str(task), str(task / "walk.py")), "cuda",
                       Options(max_tier=1, size="small", trace=True))
    result = tier1(ctx)
    traced = [f for f in result.findings if f.kind == "trace"]
    assert any(f.rewrite_family == "coalesce-contiguous-axis" for f in traced)
    assert all(f not in ctx.hypotheses() for f in traced)  # they rank; they are not idioms to confirm
    off = tier1(make_context(resolve_target(str(task), str(task / "walk.py")), "cuda",
                             Options(max_tier=1, size="small")))
    assert not [f for f in off.findings if f.kind == "trace"]


def test_a_scalar_recurrence_is_named_over_the_narrow_loads_the_ir_confirms(task, cache, monkeypatch):
    assert "use-associative-scan" in _families(task, "ema.py", cache, monkeypatch)
    d = diagnose(make_context(resolve_target(str(task), str(task / "ema.py")), "cuda",
                              Options(max_tier=3, size="small", trace=True)))
    assert d.verdict == "concluded" and d.conclusion.rewrite_family == "use-associative-scan"
    assert "CPU trace" in d.reason and not problems(d.to_dict())
    # without the trace the same ladder names the effect it sees in the IR
    plain = diagnose(make_context(resolve_target(str(task), str(task / "ema.py")), "cuda",
                                  Options(max_tier=3, size="small")))
    assert plain.conclusion is None or plain.conclusion.rewrite_family != "use-associative-scan"


def test_atomics_at_sorted_keys_are_a_segment_reduction_and_shuffled_keys_are_not(task, cache,
                                                                                  monkeypatch):
    found = _families(task, "sorted_keys.py", cache, monkeypatch)
    seg = found["segment-reduce-sorted-keys"]
    assert seg.evidence["facts"]["mean_run"] >= 8 and seg.location["function"] == "group_sum"
    shuffled = _families(task, "shuffled_keys.py", cache, monkeypatch)
    assert "segment-reduce-sorted-keys" not in shuffled and "aggregate-before-atomics" in shuffled
    # the source's scatter idiom is confirmed in the IR; the trace says which form it takes
    d = diagnose(make_context(resolve_target(str(task), str(task / "sorted_keys.py")), "cuda",
                              Options(max_tier=3, size="small", trace=True)))
    assert d.conclusion is not None and d.conclusion.rewrite_family == "segment-reduce-sorted-keys"
    assert d.ranking[0]["rewrite_family"] == "segment-reduce-sorted-keys"
    assert not problems(d.to_dict())
    plain = diagnose(make_context(resolve_target(str(task), str(task / "shuffled_keys.py")), "cuda",
                                  Options(max_tier=3, size="small", trace=True)))
    assert plain.conclusion is None or plain.conclusion.rewrite_family != "segment-reduce-sorted-keys"


def test_one_sorted_key_per_program_is_read_across_programs(task, cache, monkeypatch):
    """A row's group read as one integer per program: sorted groups show in the order of the
    sampled programs and in neighbours sharing a group; the same groups shuffled do not."""
    found = _families(task, "row_keys_sorted.py", cache, monkeypatch)
    seg = found["segment-reduce-sorted-keys"]
    assert seg.location["function"] == "row_group_sum" and "neighbouring programs" in seg.message
    shuffled = _families(task, "row_keys_shuffled.py", cache, monkeypatch)
    assert "segment-reduce-sorted-keys" not in shuffled and "aggregate-before-atomics" in shuffled


def test_neighbouring_programs_redoing_one_row_pass_are_compute_stats_once(task, cache, monkeypatch):
    found = _families(task, "tiles.py", cache, monkeypatch)
    redo = found["compute-stats-once"]
    assert redo.evidence["facts"]["shared"] >= 0.9 and redo.location["function"] == "scale_tiles"
    # the column-walk and row-tile kernels share nothing between neighbours
    assert "compute-stats-once" not in _families(task, "rows.py", cache, monkeypatch)


def test_read_backs_are_weighed_by_their_stalls_and_a_loop_of_them_outweighs_fusing(
        task, cache, monkeypatch):
    """A read-back costs a round trip, not bytes: 1,024 of them around two short kernels are
    nearly all the time, one of them a smaller part; the loop's answer is the read-backs, not
    the fused launch the source also suggests and the IR confirms."""
    loop = _families(task, "read_loop.py", cache, monkeypatch)["avoid-host-sync"]
    once = _families(task, "read_once.py", cache, monkeypatch)["avoid-host-sync"]
    assert loop.evidence["facts"]["syncs"] == 1024 and once.evidence["facts"]["syncs"] == 1
    assert loop.evidence["share"] >= 0.99 > once.evidence["share"]
    assert loop.confidence > once.confidence
    d = diagnose(make_context(resolve_target(str(task), str(task / "read_loop.py")), "cuda",
                              Options(max_tier=3, size="small", trace=True)))
    assert d.conclusion is not None and d.conclusion.rewrite_family == "avoid-host-sync"
    assert "read-back" not in d.reason or "us of stalls" in d.reason
    assert not problems(d.to_dict())


def test_an_instruction_only_confirmation_gives_way_to_a_third_of_the_traffic(task, cache,
                                                                            monkeypatch):
    """The IR confirms the int64 offsets the source widens, but that symptom costs instructions;
    the trace measured a second pass over every row (a third of the bytes), which is the answer."""
    found = _families(task, "two_passes.py", cache, monkeypatch)
    assert 0.25 <= found["compute-stats-once"].evidence["share"] < 0.5
    d = diagnose(make_context(resolve_target(str(task), str(task / "two_passes.py")), "cuda",
                              Options(max_tier=3, size="small", trace=True)))
    assert d.conclusion is not None and d.conclusion.rewrite_family == "compute-stats-once", d.reason
    assert "int64" in d.reason and not problems(d.to_dict())


def test_rows_each_streaming_a_shared_matrix_are_tiled_into_a_dot_not_stats_once(task, cache,
                                                                               monkeypatch):
    """The trace sees every program re-read the same matrix; the source says each program
    multiplies its row with it: the rereads are the row-by-row product's, and the answer is to
    tile rows into a tl.dot, not to compute a statistic once."""
    found = _families(task, "gram.py", cache, monkeypatch)
    assert found["compute-stats-once"].evidence["share"] >= 0.5
    d = diagnose(make_context(resolve_target(str(task), str(task / "gram.py")), "cuda",
                              Options(max_tier=3, size="small", trace=True)))
    assert d.conclusion is not None and d.conclusion.rewrite_family == "tile-rows-into-dot", d.reason
    assert not problems(d.to_dict())


def test_a_strided_idiom_the_trace_measures_contiguous_is_refuted(task, cache, monkeypatch):
    """The source idiom says the crop's load walks its fast axis with stride W; the trace
    measured that load with a unit-stride axis. The claim stays in the report at half its
    confidence, marked refuted, and the IR's narrow loads confirm the div/mod decode instead.
    A real column walk keeps its claim."""
    monkeypatch.setenv("PASSWISE_CAPTURE_CACHE", str(cache))
    ctx = make_context(resolve_target(str(task), str(task / "crop.py")), "cuda",
                       Options(max_tier=1, size="small", trace=True))
    first = tier1(ctx)
    ctx.evidence.append(first)
    strided = next(f for f in first.findings if f.card_id == "cuda-strided-fast-axis")
    assert strided.evidence.get("refuted_by_trace") and strided.confidence == 0.3
    assert strided not in ctx.hypotheses()
    d = diagnose(make_context(resolve_target(str(task), str(task / "crop.py")), "cuda",
                              Options(max_tier=3, size="small", trace=True)))
    assert d.conclusion is not None and d.conclusion.rewrite_family == "avoid-div-mod-index", d.reason
    assert not problems(d.to_dict())
    walk = make_context(resolve_target(str(task), str(task / "walk.py")), "cuda",
                        Options(max_tier=1, size="small", trace=True))
    kept = tier1(walk)
    assert not any(f.evidence.get("refuted_by_trace") for f in kept.findings)


def test_on_ascend_a_loop_of_small_transfers_is_a_tile_to_grow(task, cache, monkeypatch):
    """On a vector core each loop step is one transfer each way: 1 KB steps (256 a program)
    are issue-bound and the tile should grow; 16 KB steps are not flagged, and a GPU trace of
    the same copy says nothing about it (many warps hide the steps there)."""
    monkeypatch.setenv("PASSWISE_CAPTURE_CACHE", str(cache))
    report = run_trace(task, task / "copy_1k.py", size="small")
    small = {f.rewrite_family: f for f in trace_findings(report, task / "copy_1k.py", "ascend")}
    tile = small["block-size-tuning"]
    assert tile.card_id == "ascend-small-dma-tile" and tile.evidence["facts"]["bytes_per_step"] == 1024
    assert tile.evidence["facts"]["steps"] == 256
    assert tile.evidence["ranks_only"]  # a tile size ranks; it does not overrule a confirmed idiom
    assert "block-size-tuning" not in {f.rewrite_family for f in trace_findings(report, task / "copy_1k.py")}
    big = run_trace(task, task / "copy_16k.py", size="small")
    assert "block-size-tuning" not in {f.rewrite_family for f in trace_findings(big, task / "copy_16k.py",
                                                                                  "ascend")}


def test_a_walk_that_grows_with_the_program_position_is_a_prefix_rescan(task, cache, monkeypatch):
    walk = _families(task, "prefix_walk.py", cache, monkeypatch)
    rescan = walk["carry-running-prefix"]
    steps = rescan.evidence["facts"]["steps"]
    assert steps[0] == 1 and steps[-1] == 128 and rescan.card_id == "common-prefix-rescan"
    assert "carry-running-prefix" not in _families(task, "own_block.py", cache, monkeypatch)


def test_steps_that_move_nothing_are_skipped_tiles_not_small_transfers(task, cache, monkeypatch):
    """A loop whose steps past the data are masked off: the idle steps are the finding, and the
    step that moves data (4 KB) is not a small transfer once they are left out of the average."""
    monkeypatch.setenv("PASSWISE_CAPTURE_CACHE", str(cache))
    report = run_trace(task, task / "padded.py", size="small")
    found = {f.rewrite_family: f for f in trace_findings(report, task / "padded.py", "ascend")}
    skip = found["skip-masked-tiles"]
    assert skip.evidence["facts"]["idle_steps"] * 16 >= skip.evidence["facts"]["steps"] * 15
    assert "block-size-tuning" not in found and "multi-row-programs" not in found
    assert skip.confidence == max(f.confidence for f in found.values())


def test_on_ascend_small_steps_over_rows_spaced_apart_want_several_rows_a_step(task, cache, monkeypatch):
    """Each step of a program loads one 2 KB row, the next row it takes eight rows further on:
    a bigger block cannot merge two steps, a [rows, cols] tile can (multi-row-programs). The
    contiguous walk of the 1 KB copy touches all of its span and stays a tile size."""
    monkeypatch.setenv("PASSWISE_CAPTURE_CACHE", str(cache))
    report = run_trace(task, task / "strided_rows.py", size="small")
    found = {f.rewrite_family: f for f in trace_findings(report, task / "strided_rows.py", "ascend")}
    rows = found["multi-row-programs"]
    assert rows.card_id == "common-row-per-program" and rows.evidence["ranks_only"]
    assert rows.evidence["facts"]["density"] <= 0.2 and rows.evidence["facts"]["steps"] == 128
    assert "block-size-tuning" not in found
    copy = run_trace(task, task / "copy_1k.py", size="small")
    tile = {f.rewrite_family: f for f in trace_findings(copy, task / "copy_1k.py", "ascend")}
    assert "multi-row-programs" not in tile


def test_many_programs_that_each_move_a_few_hundred_bytes_once_want_more_rows_each(
        task, cache, monkeypatch):
    """16,384 programs of 128 bytes each (one load, no loop) are short programs; 1,024 programs
    of a 2 KB row are not, and an NPU trace of the short ones leaves them to its grid cards."""
    short = _families(task, "chunks_32.py", cache, monkeypatch)
    many = short["multi-row-programs"]
    assert many.card_id == "common-row-per-program"
    assert many.evidence["facts"]["programs"] == 16384 and many.evidence["ranks_only"]
    assert many.evidence["facts"]["bytes_per_program"] == 128 + 4
    assert "multi-row-programs" not in _families(task, "chunks_512.py", cache, monkeypatch)
    monkeypatch.setenv("PASSWISE_CAPTURE_CACHE", str(cache))
    report = run_trace(task, task / "chunks_32.py", size="small")
    assert "multi-row-programs" not in {f.rewrite_family for f in trace_findings(
        report, task / "chunks_32.py", "ascend")}


def test_a_compiler_answer_about_narrow_loads_does_not_conclude_over_two_looks(task, cache,
                                                                               monkeypatch):
    """The source idiom and the trace both name the recurrence; a tier-4 answer about the narrow
    loads the recurrence produces (add hints) is kept as evidence and does not conclude: the
    trace's measure of the recurrence, all of the traffic, does."""
    monkeypatch.setenv("PASSWISE_CAPTURE_CACHE", str(cache))
    ctx = make_context(resolve_target(str(task), str(task / "ema.py")), "cuda",
                       Options(max_tier=4, size="small", trace=True))
    first = tier1(ctx)
    kinds = {(f.kind, f.rewrite_family) for f in first.findings}
    assert {("pattern", "use-associative-scan"), ("trace", "use-associative-scan")} <= kinds
    answer = Finding(tier=4, kind="pass-source", card_id="cuda-runtime-stride-no-hints",
                     rewrite_family="add-divisibility-hints", confidence=0.7,
                     message="scalar-global-loads -> tritongpu-coalesce decides the vector width",
                     evidence={"symptom_asked": "scalar-global-loads"})
    ctx.evidence += [first, TierResult(4, "compiler source", [answer], sufficient=True,
                                       reason="Tier 4 found the deciding branch.")]
    decision = answer_misses_the_cost(ctx)
    assert decision is not None
    assert "associative" in decision.reason or "recurrence" in decision.reason
    assert answer.confidence == 0.35 and answer.evidence["explains_cost"] is False
    # the recurrence's loads and stores are all of the traffic (>= 3/4 measured): it concludes
    assert decision.stop and decision.conclusion.rewrite_family == "use-associative-scan"


def test_on_ascend_the_same_trace_names_the_ascend_twins_and_drops_gpu_only_cards(task, cache,
                                                                                 monkeypatch):
    ascend = {c.id: c.rewrite_family for c in load_cards("ascend")}
    assert set(ASCEND_TWINS.values()) <= set(ascend)
    monkeypatch.setenv("PASSWISE_CAPTURE_CACHE", str(cache))
    walk = run_trace(task, task / "walk.py", size="small")
    found = trace_findings(walk, task / "walk.py", "ascend")
    strided = next(f for f in found if f.card_id == "ascend-strided-fast-axis")
    assert strided.rewrite_family == ascend["ascend-strided-fast-axis"]
    host = trace_findings(run_trace(task, task / "host.py", size="small"), task / "host.py", "ascend")
    assert all(f.card_id in ascend for f in found + host)
    assert {"ascend-atomic-reduction", "common-launch-loop"} <= {f.card_id for f in host}


def test_a_launcher_that_raises_is_one_sentence_and_no_findings(tmp_path):
    (tmp_path / "task.py").write_text(textwrap.dedent(TASK))
    (tmp_path / "bad.py").write_text("def run(x):\n    raise RuntimeError('boom')\n")
    report = run_trace(tmp_path, tmp_path / "bad.py", size="small")
    assert "RuntimeError: boom" in report["setup_error"]
    assert trace_findings(report, tmp_path / "bad.py") == []
    with pytest.raises(TraceError, match="no task.py"):
        run_trace(tmp_path / "missing", tmp_path / "bad.py")


def test_fp64_math_weighs_by_how_many_values_it_widens(task, cache, monkeypatch):
    """Every loaded value widened is fp64 math over the data; one sum per program widened is a
    rounding choice at the end: the trace names both, but only the first with a large share."""
    every = _families(task, "fp64_all.py", cache, monkeypatch)["lower-precision-math"]
    once = _families(task, "fp64_once.py", cache, monkeypatch)["lower-precision-math"]
    assert every.evidence["share"] >= 0.8 > 0.01 >= once.evidence["share"]
    assert once.confidence < every.confidence
    assert "of the values loaded" in once.message


def test_loop_steps_whose_where_keeps_no_lane_are_masked_tiles(task, cache, monkeypatch):
    """Measured, not read: the where's condition is spelled through a local bound, and the
    trace counts the steps on which it kept nothing (60 of every 64 per program)."""
    scan = _families(task, "window_all.py", cache, monkeypatch)["skip-masked-tiles"]
    facts = scan.evidence["facts"]
    assert facts["dropped_steps"] * 64 == facts["steps"] * 60
    assert scan.card_id == "common-causal-full-scan" and scan.confidence > 0.6
    assert "skip-masked-tiles" not in _families(task, "window_own.py", cache, monkeypatch)
    # a running minimum whose condition rarely holds keeps its old values: a choice, not a mask
    assert "skip-masked-tiles" not in _families(task, "running_min.py", cache, monkeypatch)


def test_a_measured_waste_that_could_gain_far_more_overrules_a_confirmed_small_grid(task, cache,
                                                                                  monkeypatch):
    """64 programs loop over the keys with a 16-row dot: the IR confirms the dot's shape and the
    half-idle grid, but the trace measured 60 of 64 steps thrown away, a gain of 16x against the
    grid's 2x: the measured waste is the answer."""
    monkeypatch.setenv("PASSWISE_CAPTURE_CACHE", str(cache))
    d = diagnose(make_context(resolve_target(str(task), str(task / "window_all.py")), "cuda",
                              Options(max_tier=3, size="small", trace=True)))
    assert d.conclusion is not None and d.conclusion.rewrite_family == "skip-masked-tiles", d.reason
    assert "keeps no lane" in d.reason and not problems(d.to_dict())
