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
