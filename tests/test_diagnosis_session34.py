"""Session 34's general readings (issue 12), from round 43's first run.

On a GPU the fields of a wide packed record moved one strided access at a time (sixteen
components of a row stored one by one, the quants of a block record read one per loop step)
cost a sector per lane per field: the fix moves whole records as one tile and rearranges them on
chip, which a record of a few words (x, y, z) or a table every program shares does not need.
A finalize launched as one program is no row per program. A loaded integer tile (other=0) in a
`tl.where` compare is an integer compare on the NPU. A task loop that decodes its item into a
slice and a block (the block spelled `item - b * tiles`) and streams the whole slice in each task
repeats one statistic per block. A window summed down a strided axis (`offs + j * stride`) is a
window re-sum as one along the row is. A tile-size reading of the trace does not outrank a
structural cause the trace measured over most of the traffic, and a zero fill the trace measured
as a sliver of the traffic is no answer."""

from __future__ import annotations

from diagnose.evidence import Finding, TierResult
from diagnose.ladder import _refute_minor_fill
from diagnose.profiling.trace import run_trace
from diagnose.triage import triage
from diagnose.weigh import rank
from tests.test_diagnosis_session26 import _task

HEADER = "import torch, triton, triton.language as tl\n"

# sixteen components of each edge's row, stored one strided store each
COMPONENT_STORES = HEADER + '''

@triton.jit
def sh_kernel(vec, out, n, BLOCK: tl.constexpr):
    e = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = e < n
    x = tl.load(vec + 3 * e, mask=ok, other=1.0)
    y = tl.load(vec + 3 * e + 1, mask=ok, other=0.0)
    z = tl.load(vec + 3 * e + 2, mask=ok, other=0.0)
    row = out + 16 * e
''' + "".join(f"    tl.store(row + {i}, x * {i + 1}.0 + y - z, mask=ok)\n" for i in range(16)) + '''

def run(vec):
    n = vec.shape[0]
    out = torch.empty(n, 16, device=vec.device)
    sh_kernel[(triton.cdiv(n, 256),)](vec, out, n, BLOCK=256)
    return out
'''

# a block record of 34 bytes (a 2-byte scale, then 32 quants) read one quant per loop step
RECORD_LOOP = HEADER + '''

@triton.jit
def q8_kernel(w_ptr, y_ptr, n_blocks, RECORD: tl.constexpr, QK: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    qs = w_ptr.to(tl.pointer_type(tl.int8))
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for b in range(n_blocks):
        rec = (rows * n_blocks + b) * RECORD
        for j in tl.static_range(QK):
            acc += tl.load(qs + rec + 2 + j).to(tl.float32)
    tl.store(y_ptr + rows, acc)


def run(w, n_blocks):
    y = torch.empty(256, device=w.device)
    q8_kernel[(2,)](w, y, n_blocks, RECORD=34, QK=32, BLOCK=128)
    return y
'''

# the same sixteen fields of a small table that every program reads whole
SHARED_TABLE = HEADER + '''

@triton.jit
def table_kernel(tab, x_ptr, out, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    o = tl.arange(0, 16)
    x = tl.load(x_ptr + i, mask=i < n, other=0.0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
''' + "".join(f"    acc += tl.sum(tl.load(tab + o * 16 + {k})[None, :] * x[:, None], axis=1)\n" for k in range(16)) + '''
    tl.store(out + i, acc, mask=i < n)


def run(tab, x):
    out = torch.empty_like(x)
    table_kernel[(triton.cdiv(x.numel(), 128),)](tab, x, out, x.numel(), BLOCK=128)
    return out
'''


def _families(source: str, backend: str = "cuda") -> list[tuple[str, str, float]]:
    return [(f.rewrite_family, f.card_id, f.confidence) for f in triage(source, "k.py", backend).findings]


def test_the_fields_of_a_wide_record_stored_one_by_one_are_moved_as_one_tile_on_a_gpu():
    found = _families(COMPONENT_STORES)
    assert found[0][:2] == ("load-contiguous-transpose-on-chip", "cuda-interleaved-fields")
    # the column-walk reading of the same stores gives way; the x, y, z loads are no record
    assert all(conf <= 0.5 for family, card, conf in found if card == "cuda-strided-fast-axis")
    finding = triage(COMPONENT_STORES, "k.py", "cuda").findings[0]
    assert finding.location["line"] == COMPONENT_STORES.splitlines().index("    tl.store(row + 0, x * 1.0 + y - z, mask=ok)") + 1


def test_a_loop_over_a_records_fields_after_its_header_is_the_same_reading():
    found = [f for f in triage(RECORD_LOOP, "k.py", "cuda").findings if f.card_id == "cuda-interleaved-fields"]
    assert len(found) == 1 and "32 fields of packed 34-word records" in found[0].message


def test_a_table_every_program_shares_and_a_three_word_record_are_not_read_as_records():
    assert not any(card == "cuda-interleaved-fields" for _, card, _ in _families(SHARED_TABLE))
    three = COMPONENT_STORES.split("    row = out")[0] + "    tl.store(out + e, x + y + z, mask=ok)\n"
    assert not any(card == "cuda-interleaved-fields" for _, card, _ in _families(three))


FINALIZE = HEADER + '''

@triton.jit
def partial_kernel(x_ptr, part_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(pid * BLOCK, n, tl.num_programs(0) * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(part_ptr + pid, tl.sum(acc, axis=0))


@triton.jit
def finalize_kernel(part_ptr, out_ptr, P, BP: tl.constexpr):
    idx = tl.arange(0, BP)
    tl.store(out_ptr, tl.sum(tl.load(part_ptr + idx, mask=idx < P, other=0.0), axis=0))


def run(x):
    part = torch.empty(40, device=x.device)
    out = torch.empty(1, device=x.device)
    partial_kernel[(40,)](x, part, x.numel(), BLOCK=2048)
    finalize_kernel[(1,)](part, out, 40, BP=64)
    return out
'''


def test_a_finalize_launched_as_one_program_is_no_row_per_program():
    assert not any(card == "common-row-per-program" for _, card, _ in _families(FINALIZE, "ascend"))
    many = FINALIZE.replace("finalize_kernel[(1,)]", "finalize_kernel[(x.shape[0],)]")
    assert any(card == "common-row-per-program" for _, card, _ in _families(many, "ascend"))


DATE_FILTER = HEADER + '''

@triton.jit
def q6_kernel(day_ptr, price_ptr, out_ptr, N, lo, hi, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for blk in range(pid, tl.cdiv(N, BLOCK), tl.num_programs(0)):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        m = offs < N
        day = tl.load(day_ptr + offs, mask=m, other=0)
        price = tl.load(price_ptr + offs, mask=m, other=0.0)
        acc += tl.where((day >= lo) & (day < hi), price, 0.0)
    tl.store(out_ptr + pid, tl.sum(acc, axis=0))


def run(day, price, lo, hi):
    out = torch.empty(40, device=price.device)
    q6_kernel[(40,)](day, price, out, day.numel(), lo, hi, BLOCK=2048)
    return out
'''


def test_a_loaded_integer_tile_compared_in_a_where_is_an_integer_compare_on_the_npu():
    assert ("float-compare-mask", "ascend-int-compare-where") in {f[:2] for f in _families(DATE_FILTER, "ascend")}
    floats = DATE_FILTER.replace("other=0)", "other=0.0)")
    assert "ascend-int-compare-where" not in {f[1] for f in _families(floats, "ascend")}


BODY_STATS = HEADER + '''

@triton.jit
def goals_kernel(x, out, NB, P, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    tiles = tl.cdiv(P, BLOCK)
    for item in range(pid, NB * tiles, tl.num_programs(0)):
        b = item // tiles
        t = item - b * tiles
        s = tl.zeros([BLOCK], dtype=tl.float32)
        for k in range(0, P, BLOCK):
            offs = k + tl.arange(0, BLOCK)
            s += tl.load(x + b * P + offs, mask=offs < P, other=0.0)
        mean = tl.sum(s, axis=0) / P
        offs = t * BLOCK + tl.arange(0, BLOCK)
        v = tl.load(x + b * P + offs, mask=offs < P, other=0.0)
        tl.store(out + b * P + offs, v - mean, mask=offs < P)


def run(x):
    nb, p = x.shape
    out = torch.empty_like(x)
    goals_kernel[(40,)](x, out, nb, p, BLOCK=512)
    return out
'''


def test_a_whole_slice_streamed_in_each_block_task_of_it_is_a_statistic_recomputed():
    assert "compute-stats-once" in {f[0] for f in _families(BODY_STATS, "ascend")}
    own = BODY_STATS.replace("s += tl.load(x + b * P + offs", "s += tl.load(x + item * P + offs")
    assert "compute-stats-once" not in {f[0] for f in _families(own, "ascend")}


BOX_SUMS = HEADER + '''

@triton.jit
def box_kernel(y_ptr, dur_ptr, out_ptr, P, NB, stride, BN: tl.constexpr, BP: tl.constexpr):
    per = tl.program_id(0) * BP + tl.arange(0, BP)
    best = tl.zeros([BP], dtype=tl.float32)
    d = tl.load(dur_ptr)
    for n0 in range(0, NB, BN):
        bins = n0 + tl.arange(0, BN)
        offs = bins[:, None] * stride + per[None, :]
        y_in = tl.zeros([BN, BP], dtype=tl.float32)
        for j in range(d):
            y_in += tl.load(y_ptr + offs + j * stride)
        best = tl.maximum(best, tl.max(y_in, axis=0))
    tl.store(out_ptr + per, best)


def run(y, dur):
    out = torch.empty(y.shape[1], device=y.device)
    box_kernel[(y.shape[1] // 32,)](y, dur, out, y.shape[1], y.shape[0], y.stride(0), BN=64, BP=32)
    return out
'''


def test_a_window_summed_down_a_strided_axis_is_a_window_resum():
    assert ("carry-running-prefix", "common-window-resum") in {f[:2] for f in _families(BOX_SUMS, "ascend")}
    # taps along another axis than the outputs' positions overlap nothing
    across = BOX_SUMS.replace("offs + j * stride", "offs + j * P")
    assert "common-window-resum" not in {f[1] for f in _families(across, "ascend")}


def _trace(family: str, conf: float, share: float, **flags: bool) -> Finding:
    return Finding(tier=1, kind="trace", card_id="c-" + family, rewrite_family=family, message="",
                   confidence=conf, evidence={"traced": True, "share": share, **flags})


def test_a_tile_size_reading_ranks_below_a_structural_cause_the_trace_measured():
    tier1 = TierResult(1, "pattern triage", [
        _trace("block-size-tuning", 0.65, 1.0, ranks_only=True),
        _trace("skip-masked-tiles", 0.647, 0.99),
        Finding(1, "pattern", "common-no-autotune", "autotune-configs", "", 0.45,
                evidence={"facts": {"fallback": True}})])
    assert [c.rewrite_family for c in rank([tier1])][:2] == ["skip-masked-tiles", "block-size-tuning"]
    # a structural cause over a small share of the traffic does not move it
    tier1.findings[1] = _trace("skip-masked-tiles", 0.62, 0.3)
    assert rank([tier1])[0].rewrite_family == "block-size-tuning"


# each point's distance to its nearest partner: one value per point out, a pairwise pass in
NEAREST = HEADER + '''

@triton.jit
def nearest_kernel(a_ptr, b_ptr, out_ptr, M, BLOCK: tl.constexpr):
    i = tl.program_id(0)
    a = tl.load(a_ptr + i)
    best = float("inf")
    for start in range(0, M, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        d = tl.load(b_ptr + offs, mask=offs < M, other=float("inf")) - a
        best = tl.minimum(best, tl.min(d * d, axis=0))
    tl.store(out_ptr + i, best)


def run(a, b):
    out = torch.zeros(a.shape[0], device=a.device, dtype=a.dtype)
    nearest_kernel[(a.shape[0],)](a, b, out, b.shape[0], BLOCK=64)
    return out
'''

NEAREST_TASK = '''
import torch
META = {"sizes": {"small": {"N": 16, "M": 2048}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(16, generator=g).to(device), torch.randn(2048, generator=g).to(device))
def reference(a, b):
    return ((b[None, :] - a[:, None]) ** 2).min(dim=1).values
'''

# the same fill before an elementwise pass: the fill is a third of the traffic
SCALED = HEADER + '''

@triton.jit
def scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, 2.0 * tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


def run(x):
    out = torch.zeros_like(x)
    scale_kernel[(triton.cdiv(x.numel(), 256),)](x, out, x.numel(), BLOCK=256)
    return out
'''

SCALED_TASK = '''
import torch
META = {"sizes": {"small": {"n": 4096}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    return (torch.randn(4096, generator=torch.Generator().manual_seed(seed)).to(device),)
def reference(x):
    return 2.0 * x
'''


def _fill_claim(tmp_path, name: str, task_py: str, source: str) -> Finding:
    task = _task(tmp_path, name, task_py, source)
    tier1 = triage(source, str(task / "baseline.py"), "ascend")
    assert any(f.card_id == "common-zeroed-output" for f in tier1.findings)
    _refute_minor_fill(tier1, run_trace(task, task / "baseline.py", size="small"))
    return next(f for f in tier1.findings if f.card_id == "common-zeroed-output")


def test_a_zero_fill_the_trace_measured_as_a_sliver_of_the_traffic_is_refuted(tmp_path):
    minor = _fill_claim(tmp_path, "nearest", NEAREST_TASK, NEAREST)
    assert "refuted_by_trace" in minor.evidence and "of the" in minor.evidence["refuted_by_trace"]
    whole = _fill_claim(tmp_path, "scaled", SCALED_TASK, SCALED)
    assert "refuted_by_trace" not in whole.evidence


def test_a_tier4_answer_no_idiom_supports_gives_way_to_a_confident_idiom_of_another_family() -> None:
    from diagnose.ladder import (
        SOURCE_CAUSE_CONFIDENCE,
        Options,
        answer_misses_the_cost,
        make_context,
    )
    from diagnose.target import resolve_target
    from tests.test_diagnosis_session23 import KERNEL, _narrow_loads

    def answered(confidence: float):
        first = triage(KERNEL.read_text(), str(KERNEL), "cuda")
        first.findings = [Finding(1, "pattern", "common-window-resum", "carry-running-prefix",
                                  "re-sums a window for every output", confidence,
                                  {"path": str(KERNEL), "function": None, "line": 10})]
        ctx = make_context(resolve_target(str(KERNEL)), "cuda", Options())
        answer = Finding(4, "pass-source", "cuda-runtime-stride-no-hints", "add-divisibility-hints",
                         "AxisInfo decides the alignment", 0.7, evidence={"symptom_asked": "scalar-global-loads"})
        ctx.evidence = [first, TierResult(2, "profiling", []), TierResult(3, "IR attribution", [_narrow_loads(10)]),
                        TierResult(4, "compiler-source escalation", [answer], sufficient=True)]
        return ctx, answer

    ctx, answer = answered(SOURCE_CAUSE_CONFIDENCE + 0.05)
    decision = answer_misses_the_cost(ctx)
    assert decision is not None and "window" in decision.reason and answer.confidence == 0.35
    ctx, answer = answered(SOURCE_CAUSE_CONFIDENCE - 0.05)
    assert answer_misses_the_cost(ctx) is None and answer.confidence == 0.7
