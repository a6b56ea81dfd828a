"""Session 45: behaviour added for issue 12 (generalization), each test on the idiom, not a case."""

from __future__ import annotations

import textwrap

from diagnose.evidence import Finding, TierResult
from diagnose.ir import attribute, capture_cuda
from diagnose.ladder import Context, _cheap_fp64
from tests.test_diagnosis_session26 import _task, traced

HEADER = "import torch\nimport triton\nimport triton.language as tl\n"

# times kept in fp64 because they need it (seconds since an epoch); each program compares its
# block with every other block: the fp64 math is subtract, abs and compare, at half the fp32 rate
CLOSE = HEADER + textwrap.dedent('''
    @triton.jit
    def close(t, out, n, window, BLOCK: tl.constexpr):
        i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        ti = tl.load(t + i, mask=i < n, other=0.0)
        hits = tl.zeros([BLOCK], dtype=tl.int32)
        for j0 in range(0, n, BLOCK):
            j = j0 + tl.arange(0, BLOCK)
            tj = tl.load(t + j, mask=j < n, other=0.0)
            near = {math} <= window
            hits += tl.sum(near.to(tl.int32), axis=1)
        tl.store(out + i, hits, mask=i < n)

    def run(t):
        out = torch.empty(t.numel(), dtype=torch.int32, device=t.device)
        close[(triton.cdiv(t.numel(), 64),)](t, out, t.numel(), 0.01, BLOCK=64)
        return out
''')

CLOSE_TASK = '''
import torch
META = {"sizes": {"small": {"N": 256}, "large": {"N": 256}}, "dtypes": ["float64"]}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    n = META["sizes"][size]["N"]
    return ((1.26e9 + torch.rand(n, generator=g, dtype=torch.float64)).sort().values.to(device),)
def reference(t):
    return ((t[:, None] - t[None, :]).abs() <= 0.01).sum(1).int()
'''

CHEAP = "tl.abs(ti[:, None] - tj[None, :])"
COSTLY = "tl.sqrt(tl.abs(ti[:, None] - tj[None, :]))"


def test_a_loads_fill_value_cast_to_fp64_is_no_widening(tmp_path):
    # `other=0.0` on an fp64 pointer is cast by tl.load itself: a constant, not fp64 math over
    # fp32 data; the fp64 comes from the data, so the trace has no widening to report
    found = traced(tmp_path, "close", CLOSE_TASK, CLOSE.format(math=CHEAP))
    widened = [f for f in found if f.rewrite_family == "lower-precision-math"]
    lines = [n for n, line in enumerate(CLOSE.splitlines(), 1) if "other=0.0" in line]
    assert len(lines) == 2 and not [f for f in widened if (f.location or {}).get("line") in lines]
    # what is left is the fp32 `window` argument widened to meet the data: one value per step
    assert all(f.evidence["share"] < 0.05 for f in widened)
    # a tile of fp32 data widened is still one
    widened = CLOSE.replace("tj = tl.load(t + j, mask=j < n, other=0.0)",
                            "tj = tl.load(t + j, mask=j < n, other=0.0).to(tl.float32).to(tl.float64)")
    assert [f for f in traced(tmp_path, "widened", CLOSE_TASK, widened.format(math=COSTLY))
            if f.rewrite_family == "lower-precision-math"]


def _fp64_symptom(tmp_path, name: str, math: str) -> Finding:
    from diagnose.ir.tier import tier3_result

    capture = capture_cuda(_task(tmp_path, name, CLOSE_TASK, CLOSE.format(math=math)))
    result = tier3_result(capture, attribute(capture), {"cuda-fp64-math": "lower-precision-math"}, 0.0)
    return next(f for f in result.findings if f.evidence.get("symptom") == "fp64-arith")


def test_fp64_data_whose_math_is_adds_and_compares_weighs_as_a_cheap_symptom(tmp_path):
    cheap = _fp64_symptom(tmp_path, "cheap", CHEAP)
    costly = _fp64_symptom(tmp_path, "costly", COSTLY)
    assert set(cheap.evidence["fp64_ops"]) <= {"subf", "absf", "cmpf"}
    assert "sqrt" in costly.evidence["fp64_ops"]
    ctx = Context.__new__(Context)
    ctx.evidence, ctx.trace = [TierResult(1, "pattern triage", [])], None
    before = (cheap.confidence, costly.confidence)
    _cheap_fp64(ctx, TierResult(3, "IR attribution", [cheap, costly]))
    # no tier-1 reading and no trace: the IR's own op kinds tell the cheap from the costly
    assert cheap.confidence == before[0] / 2 and "cheap_fp64" in cheap.evidence
    assert costly.confidence == before[1] and "cheap_fp64" not in costly.evidence


# a big streaming kernel writes one partial sum per program; a finalize launch of one program
# adds the partials up: its grid leaves the GPU idle for a sliver of the call's time
PARTIALS = HEADER + textwrap.dedent('''
    @triton.jit
    def scale(x, y, partials, n, BLOCK: tl.constexpr):
        pid = tl.program_id(0)
        offs = pid * BLOCK + tl.arange(0, BLOCK)
        v = tl.load(x + offs, mask=offs < n, other=0.0) * 2.0
        tl.store(y + offs, v, mask=offs < n)
        tl.store(partials + pid, tl.sum(v, axis=0))

    @triton.jit
    def finalize(partials, total, m, BLOCK: tl.constexpr):
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        for start in range(0, m, BLOCK):
            idx = start + tl.arange(0, BLOCK)
            acc += tl.load(partials + idx, mask=idx < m, other=0.0)
        tl.store(total, tl.sum(acc, axis=0))

    def run(x):
        n = x.numel()
        grid = triton.cdiv(n, 256)
        y = torch.empty_like(x)
        partials = torch.empty(grid, device=x.device, dtype=torch.float32)
        total = torch.empty((), device=x.device, dtype=torch.float32)
        scale[(grid,)](x, y, partials, n, BLOCK=256)
        finalize[(1,)](partials, total, grid, BLOCK=128)
        return y, total
''')

PARTIALS_TASK = '''
import torch
META = {"sizes": {"small": {"N": 262144}, "large": {"N": 262144}}, "dtypes": ["float32"]}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(META["sizes"][size]["N"], generator=g).to(device),)
def reference(x):
    return x * 2.0, (x * 2.0).sum()
'''


def test_a_one_program_finalize_over_partials_idles_the_gpu_for_a_sliver(tmp_path):
    from diagnose.ladder import _refute_minor_underfill, minor_kernels
    from diagnose.profiling.trace import run_trace
    from diagnose.triage import triage

    task = _task(tmp_path, "partials", PARTIALS_TASK, PARTIALS)
    report = run_trace(task, task / "baseline.py", size="small")
    minor = minor_kernels(report)
    assert "finalize" in minor and "scale" not in minor
    first = triage(PARTIALS, "k.py", "cuda")
    claims = [f for f in first.findings if f.rewrite_family == "split-work-across-programs"]
    assert claims and all((f.evidence.get("facts") or {}).get("kernel") == "finalize" for f in claims)
    _refute_minor_underfill(first, report)
    assert all("refuted_by_trace" in f.evidence for f in claims)


# one program per output pixel with the channels on the lanes, `HW` apart in NCHW
PIXEL = HEADER + textwrap.dedent('''
    @triton.jit
    def shift(feat, out, C, H, W, BLOCK_C: tl.constexpr):
        px = tl.program_id(0)
        py = tl.program_id(1)
        HW = H * W
        c = tl.arange(0, BLOCK_C)
        ok = c < C
        v = tl.load(feat + c * HW + py * W + px, mask=ok, other=0.0)
        tl.store(out + {out_index}, v * 0.5, mask=ok)

    def run(feat):
        C, H, W = feat.shape
        out = torch.empty_like(feat)
        shift[(W, H)](feat, out, C, H, W, BLOCK_C=32, num_warps=1)
        return out
''')


def test_a_small_tile_whose_every_access_is_strided_is_no_block_size_question():
    from diagnose.triage import triage

    def families(out_index: str) -> list[str]:
        return [f.rewrite_family for f in triage(PIXEL.format(out_index=out_index), "k.py", "cuda").findings]

    strided = families("c * HW + py * W + px")
    assert "block-size-tuning" not in strided and "coalesce-contiguous-axis" in strided
    # one access along the tile's own axis, contiguous: the tile's size is a knob again
    assert "block-size-tuning" in families("(py * W + px) * C + c")


GATHER = HEADER + textwrap.dedent('''
    @triton.jit
    def lookup(codes, table, out, n, SPAN: tl.constexpr, BLOCK: tl.constexpr):
        pid = tl.program_id(0)
        rows = pid * BLOCK + tl.arange(0, BLOCK)
        cols = tl.arange(0, SPAN)
        code = tl.load(codes + rows, mask=rows < n, other=0){cast}
        x = tl.load(table + code[:, None] * SPAN + cols[None, :], mask=(rows < n)[:, None], other=0.0)
        tl.store(out + rows[:, None] * SPAN + cols[None, :], x, mask=(rows < n)[:, None])
''')


def test_an_index_read_from_memory_and_cast_is_still_a_gather_on_ascend():
    from diagnose.triage import triage

    for cast in ("", ".to(tl.int32)", ".to(tl.int32).to(tl.int64)"):
        found = [f.rewrite_family for f in triage(GATHER.format(cast=cast), "k.py", "ascend").findings]
        assert "contiguous-load-gather" in found, cast
