"""Session 39's general readings (issue 12).

Programs that each stream one shared table are a matvec per row only when they multiply what
they stream: a sorted list every program compares its own entries against is searched, not
multiplied, and stacking rows into a tl.dot would not cut its reads. Strided accesses none of
which carries much traffic alone (a stencil's taps, each its own line) waste sectors together;
the fields of one array of records, read by sibling accesses, do not."""

from __future__ import annotations

from diagnose.profiling.trace import run_trace, trace_findings
from tests.test_diagnosis_session26 import _task, traced
from tests.test_diagnosis_session38 import HEADER, ROWS, ROWS_TASK

# the same loop over the shared [128, 64] table, each program matching its row's values against it
MATCH = HEADER + '''

@triton.jit
def row_match(x, w, out, K: tl.constexpr, N: tl.constexpr, BK: tl.constexpr):
    row = tl.program_id(0)
    n = tl.arange(0, N)
    hit = tl.full([N], -1, dtype=tl.int32)
    for k0 in range(0, K, BK):
        k = k0 + tl.arange(0, BK)
        a = tl.load(x + row * K + k)
        b = tl.load(w + k[:, None] * N + n[None, :])
        hit = tl.maximum(hit, tl.max(tl.where(a[:, None] == b, k[:, None], -1), axis=0))
    tl.store(out + row * N + n, hit.to(tl.float32))


def run(x, w):
    out = torch.empty((x.shape[0], w.shape[1]), device=x.device, dtype=x.dtype)
    row_match[(x.shape[0],)](x, w, out, K=128, N=64, BK=32)
    return out
'''


def _shared_operand(tmp_path, name: str, source: str) -> list:
    task = _task(tmp_path, name, ROWS_TASK, source)
    report = run_trace(task, task / "baseline.py", size="small")
    return [f for f in trace_findings(report, task / "baseline.py") if f.card_id == "cuda-matvec-per-row"]


def test_a_shared_table_every_program_only_compares_against_is_no_matvec(tmp_path):
    assert _shared_operand(tmp_path, "match", MATCH) == []
    # the multiplying twin, traced the same way, is one
    assert len(_shared_operand(tmp_path, "rows", ROWS)) == 1


PLANE_TASK = '''
import torch
META = {"sizes": {"small": {"n": 64}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(72, 16, 64, generator=g).to(device),)
def reference(q):
    return q[1:-7].clone()
'''

# lanes along j, the slow axis of a [72, 16, 64] field: each of 7 taps (and the store) steps a
# whole plane between lanes, and each carries an eighth of the traffic
TAPS = HEADER + '''

@triton.jit
def sweep(q, out, ny, PLANE: tl.constexpr, BLOCK: tl.constexpr):
    col = tl.program_id(1)
    j = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = j < ny
    base = q + (j + 1) * PLANE + col
    acc = tl.load(base - PLANE, mask=ok, other=0.0)
    acc += tl.load(base, mask=ok, other=0.0)
    acc += tl.load(base + PLANE, mask=ok, other=0.0)
    acc += tl.load(base + 2 * PLANE, mask=ok, other=0.0)
    acc += tl.load(base + 3 * PLANE, mask=ok, other=0.0)
    acc += tl.load(base + 4 * PLANE, mask=ok, other=0.0)
    acc += tl.load(base + 5 * PLANE, mask=ok, other=0.0)
    tl.store(out + j * PLANE + col, acc, mask=ok)


def run(q):
    ny = q.shape[0] - 8
    out = torch.empty((ny, 16, 64), device=q.device, dtype=q.dtype)
    sweep[(1, 16 * 64)](q, out, ny, PLANE=16 * 64, BLOCK=64)
    return out
'''

RECORDS_TASK = '''
import torch
META = {"sizes": {"small": {"n": 4096}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(4096, 8, generator=g).to(device),)
def reference(r):
    return r.sum(1)
'''

# one lane per record of 8 fp32 fields, each field its own load: every load alone uses an eighth
# of its sectors, and the eight together use all of them
RECORDS = HEADER + '''

@triton.jit
def fields(r, out, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = i < n
    p = r + i * 8
    s = tl.load(p, mask=ok, other=0.0)
    s += tl.load(p + 1, mask=ok, other=0.0)
    s += tl.load(p + 2, mask=ok, other=0.0)
    s += tl.load(p + 3, mask=ok, other=0.0)
    s += tl.load(p + 4, mask=ok, other=0.0)
    s += tl.load(p + 5, mask=ok, other=0.0)
    s += tl.load(p + 6, mask=ok, other=0.0)
    s += tl.load(p + 7, mask=ok, other=0.0)
    tl.store(out + i, s, mask=ok)


def run(r):
    out = torch.empty(r.shape[0], device=r.device, dtype=r.dtype)
    fields[(triton.cdiv(r.shape[0], 256),)](r, out, r.shape[0], BLOCK=256)
    return out
'''


def test_stencil_taps_each_stepping_a_plane_between_lanes_waste_sectors_together(tmp_path):
    [strided] = [f for f in traced(tmp_path, "taps", PLANE_TASK, TAPS) if f.card_id == "cuda-strided-fast-axis"]
    assert strided.rewrite_family == "coalesce-contiguous-axis" and "8 accesses" in strided.message
    assert strided.evidence["share"] > 0.9


def test_the_fields_of_one_array_of_records_use_each_others_sectors(tmp_path):
    assert not [f for f in traced(tmp_path, "records", RECORDS_TASK, RECORDS) if f.card_id == "cuda-strided-fast-axis"]


SUFFIX = HEADER + '''

@triton.jit
def column_sum(x, out, ncol, nlev, BLOCK: tl.constexpr):
    k = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for s in range({count}):
        acc += tl.load(x + (nlev - 1 - s) * ncol + cols)
    tl.store(out + k * ncol + cols, acc + tl.load(x + k * ncol + cols))
'''


def test_a_loop_over_every_level_below_the_programs_own_is_a_rescan():
    from tests.test_diagnosis_session38 import _cards
    # program k sums the nlev - 1 - k levels below it: a suffix each program reads again
    assert "common-prefix-rescan" in _cards(SUFFIX.format(count="0, nlev - 1 - k"))
    # a grid-stride count shrinks by one step with the program id: each program its own share
    assert "common-prefix-rescan" not in _cards(SUFFIX.format(count="tl.cdiv(nlev - k, 8)"))


def _spills(stores: int, loads: int) -> list:
    from diagnose.ir.model import KernelIR, PtxasFacts, Specialization
    from diagnose.ir.symptoms import register_spills
    kir = KernelIR(kernel="k", file="k.py", line=3,
                   specialization=Specialization({}, {}, {}, {"num_warps": 4}),
                   ptxas=PtxasFacts(registers=40, spill_stores=stores, spill_loads=loads))
    return register_spills(kir)


def test_a_register_or_two_parked_once_is_no_spill_symptom():
    assert _spills(4, 4) == []
    [spills] = _spills(1600, 2580)
    assert spills.id == "register-spills" and "1600 B spill stores" in spills.summary


TABLE_TASK = '''
import torch
META = {"sizes": {"small": {"n": 64}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(8, generator=g).to(device), torch.sort(torch.rand(64, 256, generator=g)).values.to(device))
def reference(x, t):
    return x
'''

# every program reads the whole [64, 256] table in 64 steps; {use} decides what it does with it
TABLE = HEADER + '''

@triton.jit
def walk(x, t, out, STEPS: tl.constexpr, W: tl.constexpr):
    key = tl.load(x + tl.program_id(0))
    state = tl.zeros([W], dtype=tl.float32) + key
    hits = tl.zeros([W], dtype=tl.int32)
    for k in range(STEPS):
        row = tl.load(t + k * W + tl.arange(0, W))
        {use}
    tl.store(out + tl.program_id(0), tl.sum(state, 0) + tl.sum(hits, 0).to(tl.float32))


def run(x, t):
    out = torch.empty_like(x)
    walk[(x.shape[0],)](x, t, out, STEPS=64, W=256)
    return out
'''


def test_a_table_every_program_searches_is_a_scan_and_one_it_simulates_with_is_not(tmp_path):
    def scans(name: str, use: str) -> bool:
        found = traced(tmp_path, name, TABLE_TASK, TABLE.replace("{use}", use))
        return any(f.card_id == "common-linear-table-scan" for f in found)
    # each entry compared against the program's key: a linear search of the table
    assert scans("search", "hits += (row <= key).to(tl.int32)")
    # each row drawn as the next step's noise of a carried state, then the state compared
    assert not scans("paths", "state = state + 0.1 * row\n        hits += (state > 1.0).to(tl.int32)")


KNOTS = HEADER + '''

@triton.jit
def locate(knots, x, seg, n, m, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    t = tl.load(x + offs, mask=offs < n, other=0.0)
    i = tl.zeros([BLOCK], dtype=tl.int32)
    for j in range(1, m - 1):
        i += (t >= tl.load(knots + j)).to(tl.int32)
    tl.store(seg + offs, i, mask=offs < n)
'''


def test_counting_the_knots_below_each_element_one_loaded_knot_at_a_time_is_a_table_scan():
    from tests.test_diagnosis_session38 import _cards
    [scan] = _cards(KNOTS)["common-linear-table-scan"]
    assert scan.rewrite_family == "binary-search-sorted-bounds"


MOD_TASK = '''
import torch
META = {"sizes": {"small": {"n": 1024}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.randint(0, 2 ** 30, (1024,), generator=g, dtype=torch.int32).to(device),)
def reference(x):
    return (x.long() * x.long() % 2013265921).int()
'''

# field multiplication reduced by a modulus: {modulus} is a runtime argument or a constexpr
MODMUL = HEADER + '''

@triton.jit
def modmul(x, out, p, P: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs).to(tl.int64)
    tl.store(out + offs, (v * v % {modulus}).to(tl.int32))


def run(x):
    out = torch.empty_like(x)
    modmul[(4,)](x, out, 2013265921, P=2013265921, BLOCK=256)
    return out
'''


def test_an_int64_remainder_by_a_runtime_modulus_is_a_software_division_per_element(tmp_path):
    from diagnose.ir import attribute, capture_cuda

    def divides(name: str, modulus: str) -> list:
        task = _task(tmp_path, name, MOD_TASK, MODMUL.replace("{modulus}", modulus))
        return [s for s in attribute(capture_cuda(task)) if s.id == "int64-runtime-divide"]
    [runtime] = divides("runtime", "p")
    assert "1 tensor-wide int64 division/remainder" in runtime.summary
    assert divides("constant", "P") == []  # a constant divisor becomes multiplies and shifts


COMPACT = HEADER + '''

@triton.jit
def collapse(ids, out, n_ptr, T, BLANK: tl.constexpr):
    b = tl.program_id(0)
    n = tl.load(n_ptr + b)
    count = 0
    prev = -1
    for t in range(0, n):
        cur = tl.load(ids + b * T + t)
        if (cur != BLANK) & (cur != prev):
            tl.store(out + b * T + count, cur)
            count += 1
        prev = cur
'''


def test_a_stream_compacted_one_kept_element_per_step_is_a_scan():
    from tests.test_diagnosis_session38 import _cards
    [walk] = _cards(COMPACT)["common-serial-recurrence"]
    assert walk.rewrite_family == "use-associative-scan" and "compacts a stream" in walk.message


WALK_TASK = '''
import torch
META = {"sizes": {"small": {"n": 2048}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(2048, generator=g).to(device),)
def reference(x):
    return torch.cumsum(x, 0)
'''

# one program adds up 2,048 elements one load at a time: the steps, not the 8 KB, are the time
WALK = HEADER + '''

@triton.jit
def running(x, out, n):
    acc = 0.0
    for i in range(0, n):
        acc += tl.load(x + i)
        tl.store(out + i, acc)


def run(x):
    out = torch.empty_like(x)
    running[(1,)](x, out, x.numel())
    return out
'''


def test_a_walk_of_dependent_one_element_loads_takes_nearly_all_the_time(tmp_path):
    from diagnose.profiling.trace import dominant_walks
    task = _task(tmp_path, "walk", WALK_TASK, WALK)
    report = run_trace(task, task / "baseline.py", size="small")
    line = next(i for i, text in enumerate(WALK.splitlines(), 1) if "acc += tl.load" in text)
    assert dominant_walks(report) == {line}


SPAN = HEADER + '''

@triton.jit
def span_mean(x_ptr, start_ptr, end_ptr, out_ptr, T, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    start = tl.load(start_ptr + row)
    end = tl.load(end_ptr + row)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for off in range(0, T, BLOCK):
        t = off + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * T + t, mask={mask}, other=0.0)
        keep = (t >= start) & (t < end)
        acc += x * keep.to(tl.float32)
    tl.store(out_ptr + row, tl.sum(acc, axis=0))
'''


def test_a_tile_multiplied_by_a_span_it_read_from_memory_was_loaded_in_full():
    from tests.test_diagnosis_session38 import _cards
    [cut] = _cards(SPAN.replace("{mask}", "t < T"))["common-mask-after-load"]
    assert cut.rewrite_family == "mask-loads-not-results" and "t >= start" in cut.message
    # loaded under the span already: the product only fills what the load skipped
    assert "common-mask-after-load" not in _cards(SPAN.replace("{mask}", "(t >= start) & (t < end)"))
