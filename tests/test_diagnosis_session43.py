"""Session 43: behaviour added for issue 12 (generalization), each test on the idiom, not a case."""

from __future__ import annotations

from diagnose.triage import triage
from tests.test_diagnosis_session26 import traced

HEADER = "import torch\nimport triton\nimport triton.language as tl\n"

# one row of state per lane kept in global scratch, swept over `n` steps: at each cell the kernel
# reads the old value (for the next cell) and writes the new one, computed before the read
ROW_STATE = HEADER + '''

@triton.jit
def sweep(x, row, out, n, M, BLOCK: tl.constexpr):
    lane = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    best = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(0, n):
        xi = tl.load(x + i * BLOCK + tl.arange(0, BLOCK))
        prev = tl.zeros([BLOCK], dtype=tl.float32)
        for k in range(0, M):
            {body}
    tl.store(out + lane, best)


def run(x):
    n = x.shape[0]
    M = 24
    row = torch.zeros((32 * M,), dtype=torch.float32)
    out = torch.empty(32, dtype=torch.float32)
    sweep[(1,)](x, row, out, n, M, BLOCK=32, num_warps=1)
    return out
'''
# the new cell is computed from the cell before (`prev`, read one step earlier), then the old
# value of this cell is read for the next step and the new one written over it: a row replaced
REPLACED = """cell = tl.maximum(prev + xi, 0.0)
            best = tl.maximum(best, cell)
            prev = tl.load(row + lane * M + k)
            tl.store(row + lane * M + k, cell)"""
# the cell is read, updated and written back: a running sum kept in memory
UPDATED = """cell = tl.load(row + lane * M + k)
            cell = cell + xi
            best = tl.maximum(best, cell)
            tl.store(row + lane * M + k, cell)"""

ROW_TASK = '''
import torch
META = {"sizes": {"small": {"n": 6}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    return (torch.rand(6, 32, generator=torch.Generator().manual_seed(seed)).to(device),)
def reference(x):
    return x[0]
'''


def _accumulator_cards(source: str) -> set[str]:
    return {f.card_id for f in triage(source, "k.py", "cuda").findings
            if f.rewrite_family == "keep-accumulator-in-registers"}


def test_a_cell_written_where_its_old_value_was_read_is_no_running_sum():
    """Reading a cell and then writing a value computed before that read replaces the cell (a
    row of state swept step by step); reading it and writing back what was computed from the
    read updates it in memory, the running sum a register would hold."""
    assert not _accumulator_cards(ROW_STATE.replace("{body}", REPLACED))
    assert "cuda-global-accumulator" in _accumulator_cards(ROW_STATE.replace("{body}", UPDATED))


# a tridiagonal sweep ported through scratch: each layer reads back the row the layer before
# stored (`carried`), or carries that row in a register (`registers`); the tracer tells accesses
# apart by line, so the scratch load has a line of its own
SWEEP = HEADER + '''

@triton.jit
def thomas(a, scratch, out, NL, NC, BC: tl.constexpr):
    cols = tl.program_id(0) * BC + tl.arange(0, BC)
    g = tl.load(a + cols)
    tl.store(scratch + cols, g)
    for k in range(1, NL):
        row = k * NC + cols
        {step}
        tl.store(scratch + row, g)
    tl.store(out + cols, g)


def run(a):
    NL, NC = a.shape
    scratch = torch.empty_like(a)
    out = torch.empty(NC, dtype=a.dtype)
    thomas[(NC // 64,)](a, scratch, out, NL, NC, BC=64)
    return out
'''
CARRIED = """prev = tl.load(scratch + row - NC)
        g = tl.load(a + row) / (2.0 + prev)"""
REGISTERS = """prev = g
        g = tl.load(a + row) / (2.0 + prev)"""

SWEEP_TASK = '''
import torch
META = {"sizes": {"small": {"nl": 12, "nc": 128}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    return (torch.rand(12, 128, generator=torch.Generator().manual_seed(seed)).to(device),)
def reference(a):
    return a[0]
'''


def _traced_accumulator(root, name: str, task: str, kernel: str) -> bool:
    return any(f.rewrite_family == "keep-accumulator-in-registers"
               for f in traced(root, name, task, kernel))


def test_a_row_read_back_one_step_after_it_was_stored_is_carried_through_memory(tmp_path):
    """The trace reads a load that gets, at each step, the addresses a store of the step before
    wrote as a value carried through memory; carried in a register, there is no such load."""
    assert _traced_accumulator(tmp_path, "carried", SWEEP_TASK, SWEEP.replace("{step}", CARRIED))
    assert not _traced_accumulator(tmp_path, "registers", SWEEP_TASK,
                                   SWEEP.replace("{step}", REGISTERS))


def test_a_row_revisited_after_many_tiles_is_no_accumulator(tmp_path):
    """A row of M cells read and rewritten cell by cell comes back to a cell M executions later:
    more tiles live than registers hold. A cell read and rewritten in place, one tile per lane,
    every step (M of one) is the accumulator."""
    replaced = ROW_STATE.replace("{body}", REPLACED)
    assert not _traced_accumulator(tmp_path, "row", ROW_TASK, replaced)
    one_cell = replaced.replace("M = 24", "M = 1")
    assert _traced_accumulator(tmp_path, "cell", ROW_TASK, one_cell)


# the common neighbours of each edge's two ends: every tile of one sorted list against every tile
# of the other, the equality turned into numbers and counted
INTERSECT = HEADER + '''

@triton.jit
def common(ptr, col, src, out, BLOCK: tl.constexpr):
    e = tl.program_id(0)
    u = tl.load(src + e)
    v = tl.load(col + e)
    u0 = tl.load(ptr + u)
    un = tl.load(ptr + u + 1) - u0
    v0 = tl.load(ptr + v)
    vn = tl.load(ptr + v + 1) - v0
    lane = tl.arange(0, BLOCK)
    hits = tl.zeros([BLOCK, BLOCK], dtype=tl.int32)
    for i in range(0, un, BLOCK):
        a = tl.load(col + u0 + i + lane, mask=i + lane < un, other=-1)
        for j in range(0, vn, BLOCK):
            b = tl.load(col + v0 + j + lane, mask=j + lane < vn, other=-2)
            hits += (a[:, None] == b[None, :]).to(tl.int32)
    tl.store(out + e, tl.sum(tl.sum(hits, axis=1), axis=0))


def run(ptr, col, src):
    out = torch.empty(col.numel(), dtype=torch.int32)
    common[(col.numel(),)](ptr, col, src, out, BLOCK=8)
    return out
'''
# node n's sorted neighbour list: every node after it up to a length of 8 + 24 * (n % 7)
INTERSECT_TASK = '''
import torch
META = {"sizes": {"small": {"nodes": 24}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    lists = [list(range(n + 1, min(n + 1 + 8 + 24 * (n % 7), 400))) for n in range(400)]
    ptr = torch.tensor([0] + [len(x) for x in lists]).cumsum(0).to(torch.int32)
    col = torch.tensor([c for x in lists for c in x], dtype=torch.int32)
    src = torch.repeat_interleave(torch.arange(400, dtype=torch.int32), torch.tensor([len(x) for x in lists]))
    return ptr, col, src
def reference(ptr, col, src):
    return col
'''


def test_matches_counted_between_two_sorted_lists_are_a_search_not_masked_tiles(tmp_path):
    """An equality of two loaded sorted lists, turned into numbers and counted, finds few
    matches on most steps because it is a search: binary search (or a merge) is the rewrite,
    not skipping tiles whose emptiness nobody knows before loading them. The lists differ in
    length, so some sampled programs walk only a step or two."""
    found = {f.rewrite_family for f in traced(tmp_path, "common", INTERSECT_TASK, INTERSECT)}
    assert "binary-search-sorted-bounds" in found
    assert "skip-masked-tiles" not in found


# each [rows, cols] tile of a packed sequence's mask: a position pair is masked when a document
# boundary `e` (a sorted table, its length read for the loop's bound) falls between them
BOUNDARIES = HEADER + '''

@triton.jit
def cut(bounds, counts, out, S, BI: tl.constexpr, BJ: tl.constexpr):
    b = tl.program_id(1)
    rows = tl.program_id(0) * BI + tl.arange(0, BI)
    cols = tl.arange(0, BJ)
    masked = cols[None, :] > rows[:, None]
    for k in range(0, tl.load(counts + b)):
        e = tl.load(bounds + b * S + k).to(tl.float32)
        {update}
    tl.store(out + b * S * BJ + rows[:, None] * BJ + cols[None, :], masked.to(tl.int8))
'''
OR_ASSIGN = "masked = masked | ((rows[:, None] > e) & (cols[None, :] <= e))"
OR_AUGMENTED = "masked |= (rows[:, None] > e) & (cols[None, :] <= e)"


def _findings(source: str, backend: str = "ascend") -> dict[str, str]:
    return {f.card_id: f.rewrite_family for f in triage(source, "k.py", backend).findings}


def test_intervals_of_a_table_ored_over_a_tile_are_a_search():
    """Every boundary of a sorted table tested against the whole tile, the answers OR-ed: the
    interval each position falls in, found by a linear walk (binary search is the rewrite). The
    entry is converted after its load, which keeps it a table entry, not an element walked one
    at a time; and the loop's bound, read once before the loop, is no load repeated inside it."""
    for update in (OR_ASSIGN, OR_AUGMENTED):
        found = _findings(BOUNDARIES.replace("{update}", update))
        assert found.get("common-linear-table-scan") == "binary-search-sorted-bounds"
        assert "ascend-scalar-element-loop" not in found
        assert "common-loop-invariant-work" not in found
    # the same walk over values it also reads inside the loop is not a search of a table
    plain = BOUNDARIES.replace("{update}", "masked = masked | (e > 0.0)")
    assert "common-linear-table-scan" not in _findings(plain)


FP64 = HEADER + '''

@triton.jit
def pull(pos, acc, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    xi = tl.load(pos + i, mask=i < n, other=0.0).to(tl.float64)
    a = tl.zeros([BLOCK], dtype=tl.float64)
    for j in range(0, n):
        d = tl.load(pos + j).to(tl.float64) - xi
        a += d / tl.sqrt(d * d + 1e-3)
    tl.store(acc + i, a.to(tl.float32), mask=i < n)
'''


def test_spills_of_a_kernel_computing_in_fp64_confirm_the_fp64_math():
    """An fp64 value takes two registers: the spills measured (tier 2's local loads and stores)
    in a kernel tier 1 reads computing in fp64 are what that math costs, and confirm it rather
    than conclude a smaller tile."""
    from diagnose.evidence import Finding
    from diagnose.ladder import confirms

    [fp64] = [f for f in triage(FP64, "k.py", "cuda").findings if f.card_id == "cuda-fp64-math"]
    spills = Finding(tier=2, kind="spills", card_id="cuda-register-spills",
                     rewrite_family="block-size-tuning",
                     message="pull spills registers at size large: 9000 local loads.",
                     confidence=0.85, location={"kernel": "pull", "size": "large"},
                     evidence={"hotspot": True}, evidence_needed=[])
    assert confirms(spills, fp64)
