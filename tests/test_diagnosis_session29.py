"""Session 29's general readings (issue 12), from round 37's development misses.

A launch that reads whole what an earlier launch wrote (`tl.load(total)`, or every entry of a
partials table at addresses no program position reaches) needs that statistic complete before
any of its programs starts: the two launches are a norm's, an absmax's, a kinetic energy's two
passes over the data, and the input both read is read twice by the algorithm, not by a fusion
left undone. Neither tier 1 nor tier 3's host view names such a pair as unfused launches; a
statistic each program reads at its own row (`tl.load(stats + row)`) still can be fused.
In the same way, a one-program launch that sums a per-program partials table an earlier launch
wrote is the finishing step of a two-stage reduction: its small grid follows from the first
stage's grid and is not named as the cost (tier 1 lowers it, tier 3 leaves its symptom out)."""

from __future__ import annotations

import ast

import pytest

from diagnose.triage import triage
from diagnose.triage.detectors.launch import statistic_steps
from diagnose.triage.detectors.model import build_model
from tests.test_ladder import climb, make_task

HEADER = "import torch, triton, triton.language as tl\n"

# the sum of squares of the whole input (one atomic per block), then a pass that scales every
# element by the norm: each program of the second launch reads the total
NORM_THEN_SCALE = HEADER + '''

@triton.jit
def sumsq_kernel(x_ptr, total_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.atomic_add(total_ptr, tl.sum(x * x, axis=0))


@triton.jit
def scale_kernel(x_ptr, total_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inv = 1.0 / tl.sqrt(tl.load(total_ptr) / n)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr + offs, x * inv, mask=offs < n)


def run(x):
    n = x.numel()
    total = torch.zeros(1, device=x.device, dtype=torch.float32)
    out = torch.empty_like(x)
    grid = (triton.cdiv(n, 1024),)
    sumsq_kernel[grid](x, total, n, BLOCK=1024)
    scale_kernel[grid](x, total, out, n, BLOCK=1024)
    return out
'''

# per-row statistics, each read back by the program of its own row: one program per row could
# keep the row's max in registers and skip the round trip
ROW_STATS = HEADER + '''

@triton.jit
def row_max_kernel(x_ptr, stats_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n + cols, mask=cols < n, other=float("-inf"))
    tl.store(stats_ptr + row, tl.max(x, axis=0))


@triton.jit
def shift_kernel(x_ptr, stats_ptr, out_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = tl.load(stats_ptr + row)
    x = tl.load(x_ptr + row * n + cols, mask=cols < n, other=0.0)
    tl.store(out_ptr + row * n + cols, tl.exp(x - m), mask=cols < n)


def run(x):
    rows, n = x.shape
    stats = torch.empty(rows, device=x.device, dtype=torch.float32)
    out = torch.empty_like(x)
    row_max_kernel[(rows,)](x, stats, n, BLOCK=1024)
    shift_kernel[(rows,)](x, stats, out, n, BLOCK=1024)
    return out
'''

# one program sums its strided share of the whole input into a partials table; the second
# launch sums the table in every program (no program position in the address), then rescales
PARTIALS_THEN_RESCALE = HEADER + '''

@triton.jit
def energy_kernel(v_ptr, part_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(pid * BLOCK, n, tl.num_programs(0) * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        v = tl.load(v_ptr + offs, mask=offs < n, other=0.0)
        acc += v * v
    tl.store(part_ptr + pid, tl.sum(acc, axis=0))


@triton.jit
def rescale_kernel(v_ptr, part_ptr, out_ptr, n, P: tl.constexpr, BLOCK: tl.constexpr):
    p = tl.arange(0, P)
    lam = tl.sqrt(1.0 + 0.02 / (tl.sum(tl.load(part_ptr + p), axis=0) + 1.0))
    for start in range(tl.program_id(0) * BLOCK, n, tl.num_programs(0) * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        tl.store(out_ptr + offs, tl.load(v_ptr + offs, mask=offs < n) * lam, mask=offs < n)


def run(v):
    n = v.numel()
    part = torch.empty(1, device=v.device, dtype=torch.float32)
    out = torch.empty_like(v)
    energy_kernel[(1,)](v, part, n, BLOCK=1024)
    rescale_kernel[(40,)](v, part, out, n, P=1, BLOCK=1024)
    return out
'''


def _cards(source: str) -> list[str]:
    return [f.card_id for f in triage(source, "k.py", "cuda").findings]


def _steps(source: str) -> frozenset[tuple[str, str]]:
    return statistic_steps(build_model(source, "k.py", ast.parse(source)))


def test_a_statistic_every_program_reads_whole_is_no_unfused_pair():
    assert _steps(NORM_THEN_SCALE) == {("sumsq_kernel", "scale_kernel")}
    assert "common-unfused-launches" not in _cards(NORM_THEN_SCALE)


def test_a_statistic_read_at_each_programs_own_row_can_still_be_fused():
    assert _steps(ROW_STATS) == frozenset()
    assert "common-unfused-launches" in _cards(ROW_STATS)


def test_the_same_input_read_again_after_a_whole_statistic_is_the_second_pass():
    """The reread path (no intermediate named: the table is a partials table) is the same pair."""
    assert _steps(PARTIALS_THEN_RESCALE) == {("energy_kernel", "rescale_kernel")}
    assert "common-unfused-launches" not in _cards(PARTIALS_THEN_RESCALE)
    # a strided loop's variable is a program position: a share of the data, not the whole
    per_program = PARTIALS_THEN_RESCALE.replace("tl.load(part_ptr + p)", "tl.load(part_ptr + start + p * 0)")
    assert _steps(per_program) == frozenset()


NORM_TASK = '''
import torch
META = {"name": "norm", "sizes": {"small": {"N": 1 << 16}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(1 << 16, generator=g),)
def reference(x):
    return x / torch.sqrt((x * x).sum() / x.numel())
'''


@pytest.mark.slow
def test_the_ir_host_view_does_not_fuse_a_statistics_two_passes(tmp_path, monkeypatch):
    """Captured for real: x goes to both launches and `total` from one to the other, yet tier 3
    names no reread and no hand-over of the two passes."""
    monkeypatch.setenv("PASSWISE_CAPTURE_CACHE", str(tmp_path / "cache"))
    folder = make_task(tmp_path, "norm", NORM_TASK, NORM_THEN_SCALE)
    d = climb(folder, max_tier=3, trace=False)
    tier3 = next(t for t in d.tiers if t.tier == 3)
    assert not tier3.skipped, tier3.skip_reason
    kinds = [f.evidence.get("symptom") for f in tier3.findings]
    assert "input-reread" not in kinds and "intermediate-buffer" not in kinds, kinds


# one program per row stores the row's value in a partials table sized by the grid; one program
# then sums the table: the second launch's small grid is the finishing step of the reduction
ROWS_THEN_FINISH = HEADER + '''

@triton.jit
def row_kernel(x_ptr, part_ptr, E, BLOCK: tl.constexpr):
    t = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + t * E + cols, mask=cols < E, other=0.0)
    tl.store(part_ptr + t, tl.sum(x * x, axis=0))


@triton.jit
def finish_kernel(part_ptr, out_ptr, n, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(part_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0))


def run(x):
    T, E = x.shape
    n_programs = T
    part = torch.empty(n_programs, device=x.device, dtype=torch.float32)
    out = torch.empty(1, device=x.device, dtype=torch.float32)
    row_kernel[(n_programs,)](x, part, E, BLOCK=64)
    finish_kernel[(1,)](part, out, n_programs, BLOCK=1024)
    return out
'''


def _underfill(source: str) -> float:
    [f] = [f for f in triage(source, "k.py", "cuda").findings if f.card_id == "cuda-small-grid-underfill"]
    return f.confidence


def test_the_small_grid_of_a_partials_tables_finishing_step_is_not_the_cost():
    assert _underfill(ROWS_THEN_FINISH) < 0.5
    # the same one-program loop over data no earlier launch made per program: the underfill
    alone = ROWS_THEN_FINISH.replace("finish_kernel[(1,)](part,", "finish_kernel[(1,)](x,")
    assert _underfill(alone) >= 0.75


# an Ascend bit-field test on loaded data: the compare is of integers (not an index tile), and
# it feeds a select, which the vector unit cannot build from an integer compare
QA_MASK = HEADER + '''

@triton.jit
def qa_mask_kernel(sr, qa, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inb = offs < n
    bits = tl.load(qa + offs, mask=inb, other=1).to(tl.int32) & 31
    clear = bits == 0
    dn = tl.load(sr + offs, mask=inb, other=0).to(tl.float32)
    tl.store(out + offs, tl.where(clear, dn * 2.75e-5 - 0.2, 0.0), mask=inb)


def run(sr, qa):
    out = torch.empty(sr.shape, device=sr.device, dtype=torch.float32)
    qa_mask_kernel[(triton.cdiv(sr.numel(), 4096),)](sr, qa, out, sr.numel(), BLOCK=4096)
    return out
'''


def _ascend_cards(source: str) -> list[str]:
    return [f.card_id for f in triage(source, "k.py", "ascend").findings]


def test_an_integer_bit_field_compare_feeding_a_select_is_an_int_compare_where():
    assert "ascend-int-compare-where" in _ascend_cards(QA_MASK)
    # the same test on a value cast to fp32 first is the fix: no integer compare left
    fixed = QA_MASK.replace("clear = bits == 0", "clear = bits.to(tl.float32) == 0.0")
    assert "ascend-int-compare-where" not in _ascend_cards(fixed)
    # a float value against a float, joined with `&` to another float test: booleans, not bits
    floats = QA_MASK.replace("clear = bits == 0", "clear = (dn > 0.0) & (dn < 1.0)").replace(
        "    dn = tl.load(sr + offs, mask=inb, other=0).to(tl.float32)\n", "").replace(
        "    bits = ", "    dn = tl.load(sr + offs, mask=inb, other=0).to(tl.float32)\n    bits = ")
    assert "ascend-int-compare-where" not in _ascend_cards(floats)


# a persistent grid (one program per core) walking 32-lane tiles one after another, each tile
# a backwards recurrence over time on its lanes
TILE_WALK = HEADER + '''

@triton.jit
def returns_kernel(rewards, discounts, out, T, B, BLOCK_B: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for tile in range(pid, tl.cdiv(B, BLOCK_B), nprog):
        cols = tile * BLOCK_B + tl.arange(0, BLOCK_B)
        inb = cols < B
        acc = tl.zeros([BLOCK_B], dtype=tl.float32)
        for i in range(0, T):
            offs = (T - 1 - i) * B + cols
            acc = tl.load(rewards + offs, mask=inb, other=0.0) + tl.load(discounts + offs, mask=inb, other=0.0) * acc
            tl.store(out + offs, acc, mask=inb)


def run(rewards, discounts):
    T, B = rewards.shape
    out = torch.empty_like(rewards)
    returns_kernel[(min(40, triton.cdiv(B, 32)),)](rewards, discounts, out, T, B, BLOCK_B=32)
    return out
'''


def test_a_small_tile_each_program_walks_in_turn_outranks_the_lanes_own_recurrence():
    findings = sorted(triage(TILE_WALK, "k.py", "ascend").findings, key=lambda f: -f.confidence)
    assert findings[0].card_id == "common-block-size", [(f.card_id, f.confidence) for f in findings]
    # the tile's start bound to a temporary first (respelling `sum-temporaries`): the same walk
    spelled = TILE_WALK.replace("cols = tile * BLOCK_B + tl.arange(0, BLOCK_B)",
                                "first = tile * BLOCK_B\n        cols = first + tl.arange(0, BLOCK_B)")
    assert spelled != TILE_WALK
    findings = sorted(triage(spelled, "k.py", "ascend").findings, key=lambda f: -f.confidence)
    assert findings[0].card_id == "common-block-size", [(f.card_id, f.confidence) for f in findings]
    # one tile per program (no walk over tiles): the small tile is the weaker reading again
    one = TILE_WALK.replace("for tile in range(pid, tl.cdiv(B, BLOCK_B), nprog):", "for tile in range(pid, pid + 1):")
    block = [f for f in triage(one, "k.py", "ascend").findings if f.card_id == "common-block-size"]
    assert block and block[0].confidence < 0.75


# a max-plus recurrence over every padded step, each step's result kept only while t < n
PADDED_STEPS = HEADER + '''

@triton.jit
def viterbi_kernel(emis, lengths, trans, backptr, best, T, K, BLOCK_K: tl.constexpr):
    b = tl.program_id(0)
    n = tl.load(lengths + b)
    tag = tl.arange(0, BLOCK_K)
    ok = tag < K
    tr = tl.load(trans + tag[:, None] * K + tag[None, :], mask=ok[:, None] & ok[None, :], other=-float("inf"))
    score = tl.load(emis + b * T * K + tag, mask=ok, other=0.0)
    for t in range(1, T):
        top, idx = tl.max(score[:, None] + tr, axis=0, return_indices=True)
        tl.store(backptr + b * T * K + t * K + tag, idx, mask=ok)
        nxt = top + tl.load(emis + b * T * K + t * K + tag, mask=ok, other=0.0)
        score = tl.where(t < n, nxt, score)
    tl.store(best + b, tl.max(score, axis=0))


def run(emis, lengths, trans):
    B, T, K = emis.shape
    backptr = torch.empty((B, T, K), device=emis.device, dtype=torch.int32)
    best = torch.empty(B, device=emis.device, dtype=torch.float32)
    viterbi_kernel[(B,)](emis, lengths, trans, backptr, best, T, K, BLOCK_K=16)
    return best
'''


def test_a_step_that_loads_and_stores_then_is_discarded_by_its_flag_is_gated():
    [gated] = [f for f in triage(PADDED_STEPS, "k.py", "cuda").findings if f.card_id == "common-gated-iteration"]
    start, end = gated.evidence["facts"]["discarded_steps"]
    assert start < gated.location["line"] <= end


def test_a_traced_serial_walk_inside_a_loop_that_discards_steps_names_the_gate():
    """The trace counts a recurrence's steps; the source says most of them are thrown away: the
    conclusion takes the gate's form (the kindred-idiom lookup of a trace that outweighs)."""
    from diagnose.evidence import Finding
    from diagnose.ladder import _discards_steps_of

    [gated] = [f for f in triage(PADDED_STEPS, "k.py", "cuda").findings if f.card_id == "common-gated-iteration"]
    start, end = gated.evidence["facts"]["discarded_steps"]
    inside = Finding(tier=1, kind="trace", card_id="common-serial-recurrence",
                     rewrite_family="use-associative-scan", message="", confidence=0.6,
                     location={"line": start + 2})
    outside = Finding(tier=1, kind="trace", card_id="common-serial-recurrence",
                      rewrite_family="use-associative-scan", message="", confidence=0.6,
                      location={"line": end + 1})
    assert _discards_steps_of(gated, inside) and not _discards_steps_of(gated, outside)


@pytest.mark.slow
def test_padded_steps_conclude_on_the_gate(tmp_path, monkeypatch):
    """The whole ladder on the real kernel (CPU trace and IR capture): the answer is to skip the
    discarded steps, not to scan the recurrence."""
    monkeypatch.setenv("PASSWISE_CAPTURE_CACHE", str(tmp_path / "cache"))
    task = '''
import torch
META = {"name": "viterbi", "sizes": {"small": {"B": 64}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(64, 256, 16, generator=g), torch.randint(4, 32, (64,), generator=g),
            torch.randn(16, 16, generator=g))
def reference(emis, lengths, trans):
    return None
'''
    folder = make_task(tmp_path, "viterbi", task, PADDED_STEPS)
    d = climb(folder, max_tier=3, trace=True)
    families = [d.conclusion.rewrite_family] if d.conclusion else []
    families += [f.rewrite_family for t in d.tiers for f in t.findings if f.kind == "pattern"][:1]
    assert families[0] == "skip-masked-tiles", (d.reason, families)
