"""Session 26's general readings (issue 12), each from a round-33 development miss and checked on
the development cases its detector or trace reading touches:
- a widening to fp64 that only reaches memory (the value an atomic or a store writes into an fp64
  output) is the output's format, not fp64 math: tier 1, the trace and the IR all leave it out,
  and the IR counts fp64 math, not the conversions into it;
- the fp64 idiom's lines reach the statements that compute with the widened values, so the IR's
  math at those lines confirms it;
- a loop that walks sorted keys while its select keeps a match on a few steps is a linear search
  (a binary search over the sorted keys), not a tile to skip;
- global atomics the trace measured at addresses apart weigh as a scattered access, not as the
  serialisation their symptom assumes."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from diagnose.ir import attribute, capture_cuda
from diagnose.ladder import Options, diagnose, make_context
from diagnose.profiling.trace import run_trace, trace_findings
from diagnose.target import resolve_target
from diagnose.triage import triage

pytestmark = pytest.mark.xdist_group("trace")

HEADER = "import torch, triton, triton.language as tl\n"

# {value} is what the kernel adds into the fp64 sums: the widened value itself, or fp64 math on it
ZONAL = HEADER + textwrap.dedent('''
    @triton.jit
    def zonal(values, zones, sums, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        z = tl.load(zones + offs, mask=m, other=0)
        v = tl.load(values + offs, mask=m, other=0.0)
        wide = v.to(tl.float64)
        tl.atomic_add(sums + z, {value}, mask=m)

    def run(values, zones):
        sums = torch.zeros(16, dtype=torch.float64, device=values.device)
        zonal[(triton.cdiv(values.numel(), 1024),)](values, zones, sums, values.numel(), BLOCK=1024)
        return sums
''')

ZONAL_TASK = '''
import torch
META = {"sizes": {"small": {"N": 8192}, "large": {"N": 8192}}, "dtypes": ["float32"]}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    n = META["sizes"][size]["N"]
    return (torch.randn(n, generator=g).to(device), torch.randint(0, 16, (n,), generator=g).to(device))
def reference(values, zones):
    return torch.zeros(16, dtype=torch.float64).index_add_(0, zones.long(), values.double())
'''

# Each program looks its queries up in its own segment of a sorted key list by comparing them
# with every key tile of the segment; {shuffle} makes the segments sorted or shuffled.
SEARCH = HEADER + textwrap.dedent('''
    @triton.jit
    def probe(queries, keys, pos_out, NQ, SEG, BLOCK_Q: tl.constexpr, BLOCK_K: tl.constexpr):
        pid = tl.program_id(0)
        i = pid * BLOCK_Q + tl.arange(0, BLOCK_Q)
        q = tl.load(queries + i, mask=i < NQ, other=-1)
        pos = tl.full([BLOCK_Q], -1, dtype=tl.int32)
        for j0 in range(pid * SEG, pid * SEG + SEG, BLOCK_K):
            j = j0 + tl.arange(0, BLOCK_K)
            k = tl.load(keys + j)
            hit = q[:, None] == k[None, :]
            pos = tl.maximum(pos, tl.max(tl.where(hit, j[None, :], -1), axis=1))
        tl.store(pos_out + i, pos, mask=i < NQ)

    def run(queries, keys):
        pos = torch.empty_like(queries)
        programs = triton.cdiv(queries.numel(), 32)
        probe[(programs,)](queries, keys, pos, queries.numel(), keys.numel() // programs,
                           BLOCK_Q=32, BLOCK_K=64)
        return pos
''')

SEARCH_TASK = '''
import torch
META = {"sizes": {"small": {"P": 8, "SEG": 8192}, "large": {"P": 8, "SEG": 8192}}, "dtypes": ["int32"]}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    s = META["sizes"][size]
    keys = torch.arange(0, 3 * s["P"] * s["SEG"], 3, dtype=torch.int32).view(s["P"], s["SEG"])
    if {shuffle}:
        keys = torch.stack([row[torch.randperm(s["SEG"], generator=g)] for row in keys])
    queries = torch.stack([row[torch.randint(0, s["SEG"], (32,), generator=g)] for row in keys])
    return (queries.flatten().to(device), keys.flatten().to(device))
def reference(queries, keys):
    return (queries[:, None] == keys[None, :]).int().argmax(dim=1).int()
'''

# One atomic per element into out[idx[i]]: {index} makes the addresses apart (a permutation) or
# the same few words (i % 4).
SCATTER = HEADER + textwrap.dedent('''
    @triton.jit
    def scatter(x, idx, out, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        v = tl.load(x + offs, mask=m, other=0.0)
        d = tl.load(idx + offs, mask=m, other=0)
        tl.atomic_add(out + {index}, v, mask=m)

    def run(x, idx):
        out = torch.zeros_like(x)
        scatter[(triton.cdiv(x.numel(), 1024),)](x, idx, out, x.numel(), BLOCK=1024)
        return out
''')

SCATTER_TASK = '''
import torch
META = {"sizes": {"small": {"N": 131072}, "large": {"N": 131072}}, "dtypes": ["float32"]}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    n = META["sizes"][size]["N"]
    return (torch.randn(n, generator=g).to(device), torch.randperm(n, generator=g).int().to(device))
def reference(x, idx):
    return torch.zeros_like(x).index_add_(0, idx.long(), x)
'''


def _task(root: Path, name: str, task_py: str, kernel: str) -> Path:
    folder = root / name
    folder.mkdir()
    (folder / "task.py").write_text(textwrap.dedent(task_py))
    (folder / "baseline.py").write_text(kernel)
    return folder


def traced(root: Path, name: str, task_py: str, kernel: str, backend: str = "cuda") -> list:
    """The CPU trace's findings for `kernel` (a task folder `name` under `root`) at size small."""
    task = _task(root, name, task_py, kernel)
    report = run_trace(task, task / "baseline.py", size="small")
    return trace_findings(report, task / "baseline.py", backend)


def _fp64(source: str):
    return [f for f in triage(source, "k.py", "cuda").findings if f.card_id == "cuda-fp64-math"]


def test_a_widening_only_written_to_an_fp64_output_is_no_fp64_math():
    assert not _fp64(ZONAL.format(value="wide"))
    assert not _fp64(ZONAL.format(value="v.to(tl.float64)"))
    [math] = _fp64(ZONAL.format(value="tl.exp(wide) * 2.0"))
    widened = next(i for i, line in enumerate(ZONAL.splitlines(), 1) if "wide = " in line)
    assert math.location["line"] == widened
    # the statement that computes with the widened value is where the IR's fp64 math shows
    assert widened + 1 in math.location["reaches"]


@pytest.mark.parametrize("value, math", [("wide", False), ("tl.exp(wide) * 2.0", True),
                                          ("tl.sum(wide, axis=0)", True)])
def test_the_ir_counts_fp64_math_not_the_conversion_into_it(tmp_path, value, math):
    kernel = ZONAL.format(value=value)
    if "sum" in value:  # one sum per program, added at one word
        kernel = kernel.replace("sums + z", "sums + tl.program_id(0) % 16").replace(", mask=m)", ")")
    found = [s for s in attribute(capture_cuda(_task(tmp_path, "zonal", ZONAL_TASK, kernel)))
             if s.id == "fp64-arith"]
    assert bool(found) == math


def test_the_trace_leaves_out_a_widening_that_only_reaches_memory(tmp_path, monkeypatch):
    monkeypatch.setenv("PASSWISE_CAPTURE_CACHE", str(tmp_path / "cache"))
    for value, expected in (("wide", False), ("tl.exp(wide) * 2.0", True)):
        folder = _task(tmp_path, f"zonal{expected}", ZONAL_TASK, ZONAL.format(value=value))
        report = run_trace(folder, folder / "baseline.py", size="small")
        families = {f.rewrite_family for f in trace_findings(report, folder / "baseline.py")}
        assert ("lower-precision-math" in families) == expected


def test_a_select_keeping_matches_of_a_walk_over_sorted_keys_is_a_linear_search(tmp_path, monkeypatch):
    monkeypatch.setenv("PASSWISE_CAPTURE_CACHE", str(tmp_path / "cache"))
    found = {}
    for shuffle in (False, True):
        folder = _task(tmp_path, f"search{shuffle}", SEARCH_TASK.replace("{shuffle}", str(shuffle)), SEARCH)
        report = run_trace(folder, folder / "baseline.py", size="small")
        found[shuffle] = {f.rewrite_family: f for f in trace_findings(report, folder / "baseline.py")}
    search = found[False]["binary-search-sorted-bounds"]
    assert search.card_id == "common-linear-table-scan" and "skip-masked-tiles" not in found[False]
    assert search.evidence["facts"]["key_line"] == next(
        i for i, line in enumerate(SEARCH.splitlines(), 1) if "k = tl.load" in line)
    # the same loop over shuffled keys: no binary search can replace it; the steps it drops stay
    assert "binary-search-sorted-bounds" not in found[True]
    assert "skip-masked-tiles" in found[True]


def _atomics(d) -> dict:
    [ir] = [t for t in d.to_dict()["tiers"] if t["tier"] == 3]
    [fact] = [f for f in ir["findings"] if f["evidence"].get("symptom") == "global-atomics"]
    return fact["evidence"]


def test_atomics_the_trace_measured_apart_weigh_as_a_scattered_access(tmp_path, monkeypatch):
    monkeypatch.setenv("PASSWISE_CAPTURE_CACHE", str(tmp_path / "cache"))
    weights = {}
    for name, index in (("apart", "d"), ("queued", "offs % 4")):
        folder = _task(tmp_path, name, SCATTER_TASK, SCATTER.format(index=index))
        d = diagnose(make_context(resolve_target(str(folder), str(folder / "baseline.py")), "cuda",
                                  Options(max_tier=3, size="small", trace=True)))
        weights[name] = _atomics(d)
    assert weights["apart"]["weight"] < weights["queued"]["weight"]
    assert weights["apart"].get("apart_by_trace") and not weights["queued"].get("apart_by_trace")


# ---- round 34's development misses (the readings below were written after its first run)

# A helper returning a tuple of tiles, unpacked by the kernel: the names it binds are read as
# the values they hold (the item-against-shared-tile reading sees the partner tiles through them).
TUPLE_HELPER = HEADER + textwrap.dedent('''
    @triton.jit
    def _segment(pts, seg, ok):
        ax = tl.load(pts + 2 * seg, mask=ok, other=0.0)
        ay = tl.load(pts + 2 * seg + 1, mask=ok, other=0.0)
        return ax, ay

    @triton.jit
    def nearest(q, pts, out, n_seg, BLOCK: tl.constexpr):
        i = tl.program_id(0)
        qx = tl.load(q + 2 * i)
        qy = tl.load(q + 2 * i + 1)
        best = tl.full([BLOCK], float("inf"), tl.float32)
        for s0 in range(0, n_seg, BLOCK):
            seg = s0 + tl.arange(0, BLOCK)
            ok = seg < n_seg
            ax, ay = _segment(pts, seg, ok)
            best = tl.minimum(best, (qx - ax) * (qx - ax) + (qy - ay) * (qy - ay))
        tl.store(out + i, tl.min(best, axis=0))

    def run(q, pts):
        out = torch.empty(q.shape[0], device=q.device)
        nearest[(q.shape[0],)](q, pts, out, pts.shape[0], BLOCK=256)
        return out
''')

# A matrix product written as the sum of two broadcast products bound to names.
TWO_PRODUCTS = HEADER + textwrap.dedent('''
    @triton.jit
    def cost(z, m, out, BK: tl.constexpr, BY: tl.constexpr, BX: tl.constexpr):
        k = tl.arange(0, BK)
        y = tl.arange(0, BY)
        x = tl.arange(0, BX)
        zk = tl.load(z + k[:, None] * BY + y[None, :])
        mk = tl.load(m + k[:, None] * BX + x[None, :])
        quad = (zk * zk)[:, :, None] * (mk * 0.5)[:, None, :]
        cross = zk[:, :, None] * mk[:, None, :]
        tl.store(out + y[:, None] * BX + x[None, :], tl.sum(quad + cross, axis=0))

    def run(z, m):
        out = torch.empty((32, 32), device=z.device)
        cost[(1,)](z, m, out, BK=16, BY=32, BX=32)
        return out
''')

# A running argmin over score tiles: `best < current` compares data, not positions.
RUNNING_ARGMIN = HEADER + textwrap.dedent('''
    @triton.jit
    def assign(x, c, label, N, K, BN: tl.constexpr, BK: tl.constexpr, D: tl.constexpr):
        n = tl.program_id(0) * BN + tl.arange(0, BN)
        d = tl.arange(0, D)
        xs = tl.load(x + n[:, None] * D + d[None, :])
        best = tl.full((BN,), float("inf"), tl.float32)
        idx = tl.zeros((BN,), dtype=tl.int32)
        for k0 in range(0, K, BK):
            k = k0 + tl.arange(0, BK)
            dist = -2.0 * tl.dot(xs, tl.trans(tl.load(c + k[:, None] * D + d[None, :])))
            tb = tl.min(dist, axis=1)
            take = tb < best
            best = tl.where(take, tb, best)
            idx = tl.where(take, tl.argmin(dist, axis=1) + k0, idx)
        tl.store(label + n, idx)

    def run(x, c):
        label = torch.empty(x.shape[0], dtype=torch.int32, device=x.device)
        assign[(x.shape[0] // 64,)](x, c, label, x.shape[0], c.shape[0], BN=64, BK=64, D=64)
        return label
''')


def _found(source: str) -> set[str]:
    return {f.card_id for f in triage(source, "k.py", "cuda").findings}


def test_names_a_helper_returns_as_a_tuple_hold_the_helpers_values():
    assert "common-item-against-shared-tile" in _found(TUPLE_HELPER)
    # the same kernel with the helper's body written in place reads the same
    inline = TUPLE_HELPER.replace("ax, ay = _segment(pts, seg, ok)",
                                  "ax = tl.load(pts + 2 * seg, mask=ok, other=0.0)\n"
                                  "        ay = tl.load(pts + 2 * seg + 1, mask=ok, other=0.0)")
    assert "common-item-against-shared-tile" in _found(inline)


def test_a_sum_of_named_broadcast_products_is_a_matrix_product():
    assert "cuda-broadcast-matmul" in _found(TWO_PRODUCTS)
    # one rank-3 factor only (a matrix-vector product) is another idiom
    assert "cuda-broadcast-matmul" not in _found(
        TWO_PRODUCTS.replace("(mk * 0.5)[:, None, :]", "0.5").replace("mk[:, None, :]", "1.0"))


def test_a_running_minimum_is_no_triangle_to_skip():
    assert "common-causal-full-scan" not in _found(RUNNING_ARGMIN)


def test_segments_starting_where_an_offsets_table_says_are_no_overlapping_windows():
    walk = (Path(__file__).parent / "triage_fixtures" / "segment_walk_pos.py").read_text()
    found = _found(walk)
    assert "common-window-resum" not in found and "cuda-strided-fast-axis" in found


def test_the_ir_names_a_gathered_address_and_the_accesses_a_loop_repeats(tmp_path):
    walk = (Path(__file__).parent / "triage_fixtures" / "segment_walk_pos.py").read_text()
    task = '''
import torch
META = {"sizes": {"small": {"D": 512}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    lengths = torch.randint(1, 64, (512,), generator=g)
    offsets = torch.cat([torch.zeros(1, dtype=torch.int64), lengths.cumsum(0)]).int()
    chars = torch.randint(0, 128, (int(offsets[-1]),), generator=g, dtype=torch.uint8)
    return (chars.to(device), offsets.to(device))
def reference(chars, offsets):
    return torch.stack([(chars[a:b] == 32).sum() for a, b in zip(offsets[:-1], offsets[1:])]).int()
'''
    [narrow] = [s for s in attribute(capture_cuda(_task(tmp_path, "walk", task, walk)))
                if s.id == "scalar-global-loads"]
    line = next(i for i, text in enumerate(walk.splitlines(), 1) if "b = tl.load" in text)
    assert line in narrow.mechanisms.get("gathered-pointer", [])
    assert line in narrow.lines_in_loops
    starts = next(i for i, text in enumerate(walk.splitlines(), 1) if "start = tl.load" in text)
    assert starts not in narrow.lines_in_loops


# A rank-3 elementwise product stored with a rank-3 mask (rotary tables over heads): two operands
# broadcast along different axes on one line, and nothing sums them.
ROTATE = HEADER + textwrap.dedent('''
    @triton.jit
    def rotate(x, c, out, T: tl.constexpr, NH: tl.constexpr, D: tl.constexpr):
        t = tl.arange(0, T)
        h = tl.arange(0, NH)
        j = tl.arange(0, D)
        m = (t < T)[:, None, None] & (h < NH)[None, :, None]
        offs = t[:, None, None] * (NH * D) + h[None, :, None] * D + j[None, None, :]
        cs = tl.load(c + t[:, None] * D + j[None, :])[:, None, :]
        tl.store(out + offs, tl.load(x + offs, mask=m, other=0.0) * cs, mask=m)

    def run(x, c):
        out = torch.empty_like(x)
        rotate[(1,)](x, c, out, T=x.shape[0], NH=x.shape[1], D=x.shape[2])
        return out
''')

ROTATE_TASK = '''
import torch
META = {"sizes": {"small": {}, "large": {}}, "dtypes": ["float32"]}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(16, 4, 64, generator=g).to(device), torch.randn(16, 64, generator=g).to(device))
def reference(x, c):
    return x * c[:, None, :]
'''

# Each step stores one row of a padded output: rows PAD elements apart (fp16).
PADDED_ROWS = HEADER + textwrap.dedent('''
    @triton.jit
    def pad_rows(x, out, W: tl.constexpr, PAD: tl.constexpr):
        cols = tl.arange(0, W)
        v = tl.load(x + cols)
        for r in range(tl.program_id(0) * 64, tl.program_id(0) * 64 + 64):
            tl.store(out + r * (W + PAD) + cols, v)

    def run(x):
        out = torch.zeros((256, x.shape[0] + {pad}), dtype=x.dtype, device=x.device)
        pad_rows[(4,)](x, out, W=x.shape[0], PAD={pad})
        return out
''')

PADDED_TASK = '''
import torch
META = {"sizes": {"small": {}, "large": {}}, "dtypes": ["float16"]}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    return (torch.randn(256, generator=torch.Generator().manual_seed(seed)).half().to(device),)
def reference(x):
    return x
'''


def test_a_rank3_product_nothing_sums_is_no_matrix_product(tmp_path, monkeypatch):
    from diagnose.profiling.trace import _unreduced_lines
    monkeypatch.setenv("PASSWISE_CAPTURE_CACHE", str(tmp_path / "cache"))
    folder = _task(tmp_path, "rotate", ROTATE_TASK, ROTATE)
    report = run_trace(folder, folder / "baseline.py", size="small")
    store = next(i for i, line in enumerate(ROTATE.splitlines(), 1) if "tl.store(out + offs" in line)
    assert any(n["kind"] == "broadcast" and n["line"] == store for n in report["notes"])
    families = {f.rewrite_family for f in trace_findings(report, folder / "baseline.py")}
    assert "use-dot-for-broadcast-sum" not in families
    # a product a later tl.sum reduces, or one a helper returns, stays a candidate
    summed = (tmp_path / "summed.py")
    summed.write_text(TWO_PRODUCTS)
    quad = next(i for i, line in enumerate(TWO_PRODUCTS.splitlines(), 1) if "quad = " in line)
    assert store in _unreduced_lines(str(folder / "baseline.py"))
    assert quad not in _unreduced_lines(str(summed))


@pytest.mark.parametrize("pad, family", [(2, "block-size-tuning"), (64, "multi-row-programs")])
def test_on_ascend_rows_less_than_a_dma_block_apart_want_a_bigger_block(tmp_path, monkeypatch, pad, family):
    monkeypatch.setenv("PASSWISE_CAPTURE_CACHE", str(tmp_path / "cache"))
    folder = _task(tmp_path, f"pad{pad}", PADDED_TASK, PADDED_ROWS.replace("{pad}", str(pad)))
    report = run_trace(folder, folder / "baseline.py", size="small")
    found = {f.rewrite_family: f for f in trace_findings(report, folder / "baseline.py", "ascend")}
    assert family in found and found[family].evidence["ranks_only"]
    other = {"block-size-tuning", "multi-row-programs"} - {family}
    assert not other & set(found)
