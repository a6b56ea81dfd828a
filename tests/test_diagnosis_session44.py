"""Session 44: behaviour added for issue 12 (generalization), each test on the idiom, not a case."""

from __future__ import annotations

import ast

from diagnose.triage import triage
from diagnose.triage.detectors.launch import looped_steps
from diagnose.triage.detectors.model import build_model

HEADER = "import torch\nimport triton\nimport triton.language as tl\n"

# one item per program whose 32 lanes hold the item's record (`tl.arange(0, 32)`, a literal), a
# fixed chain of steps that each pick one lane and read a table row where the data points
CHAIN = HEADER + '''
STEPS = tl.constexpr(16)


@triton.jit
def mix(seed, table, out, n_rows):
    item = tl.program_id(0)
    w = tl.arange(0, 32)
    state = tl.load(seed + item * 32 + w)
    for i in range(STEPS):
        word = tl.sum(tl.where(w == i % 32, state, 0), axis=0)
        row = (word * 31 + i) % n_rows
        state = state ^ tl.load(table + row * 32 + w)
    tl.store(out + item * 32 + w, state)


def run(seed, table):
    n = seed.shape[0]
    out = torch.empty_like(seed)
    mix[(n,)](seed, table, out, table.shape[0], num_warps={warps})
    return out
'''


def _families(source: str, backend: str = "cuda") -> list[str]:
    return [f.rewrite_family for f in triage(source, "k.py", backend).findings]


def test_a_lane_pick_of_a_tile_used_whole_is_no_mask_after_load():
    # `tl.where(w == i, state, 0)` summed reads one lane of a tile the kernel also uses whole:
    # the load read nothing for the pick alone
    assert "mask-loads-not-results" not in _families(CHAIN.format(warps=1))


def test_a_record_per_program_with_a_gather_chain_is_a_row_per_program():
    families = _families(CHAIN.format(warps=1))
    assert families[0] == "multi-row-programs"


def test_the_chain_must_be_fixed_for_the_tile_to_be_the_row():
    # a loop whose trip count comes from the data walks memory: not one item's fixed chain
    walked = CHAIN.format(warps=1).replace("range(STEPS)", "range(n_rows)")
    assert "multi-row-programs" not in _families(walked)


# an outer loop over fields, and inside it a reduction over all fields that never reads the
# outer loop's variable: the same sum recomputed for every field
INVARIANT_INNER = HEADER + '''

@triton.jit
def step(x, out, n_fields, plane, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    for f in range(n_fields):
        total = tl.zeros([BLOCK], dtype=tl.float32)
        for k in range(n_fields):
            v = tl.load(x + k * plane + i)
            total += v * v
        c = tl.load(x + f * plane + i)
        tl.store(out + f * plane + i, c * (total - c * c))


def run(x):
    n_fields, plane = x.shape
    out = torch.empty_like(x)
    step[(plane // 256,)](x, out, n_fields, plane, BLOCK=256)
    return out
'''


def test_an_inner_reduction_that_ignores_the_outer_loop_is_loop_invariant_work():
    found = [f for f in triage(INVARIANT_INNER, "k.py", "ascend").findings
             if f.rewrite_family == "hoist-loop-invariants"]
    assert found and found[0].confidence >= 0.7
    assert "loop over `k`" in found[0].message


def test_an_inner_loop_reading_the_outer_variable_is_not_invariant():
    variant = INVARIANT_INNER.replace("tl.load(x + k * plane + i)", "tl.load(x + (k + f) % n_fields * plane + i)")
    assert "hoist-loop-invariants" not in _families(variant, "ascend")


def test_an_accumulator_carried_across_the_outer_loop_is_not_invariant():
    # `total` starts before the outer loop: each field's inner loop adds to it, work not repeated
    carried = INVARIANT_INNER.replace(
        "    for f in range(n_fields):\n        total = tl.zeros([BLOCK], dtype=tl.float32)\n",
        "    total = tl.zeros([BLOCK], dtype=tl.float32)\n    for f in range(n_fields):\n")
    assert "hoist-loop-invariants" not in _families(carried, "ascend")


# an init kernel, then rounds of a relaxation launched in a host loop that reads a device flag
# after each round and stops when nothing changed
ROUNDS = HEADER + '''

@triton.jit
def init(dist, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(dist + i, tl.where(i == 0, 0.0, 1e30), mask=i < n)


@triton.jit
def relax(dist, nxt, w, changed, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    d = tl.load(dist + i, mask=i < n, other=1e30)
    left = tl.load(dist + i - 1, mask=(i >= 1) & (i < n), other=1e30)
    new = tl.minimum(d, left + tl.load(w + i, mask=i < n, other=0.0))
    tl.store(nxt + i, new, mask=i < n)
    tl.atomic_max(changed, tl.max((new < d).to(tl.int32), axis=0))


def run(w):
    n = w.shape[0]
    dist = torch.empty(n, dtype=torch.float32)
    nxt = torch.empty(n, dtype=torch.float32)
    grid = (triton.cdiv(n, 256),)
    init[grid](dist, n, BLOCK=256)
    for rnd in range(n):
        changed = torch.zeros(1, dtype=torch.int32)
        relax[grid](dist, nxt, w, changed, n, BLOCK=256)
        dist, nxt = nxt, dist
        if changed.item() == 0:
            break
    return dist
'''


def test_a_convergence_read_in_a_loop_of_launches_is_a_host_sync_each_round():
    found = [f for f in triage(ROUNDS, "k.py", "cuda").findings if f.rewrite_family == "avoid-host-sync"]
    assert found and found[0].confidence >= 0.8


def test_an_init_kernel_read_by_a_loop_of_launches_is_no_fusion_left_undone():
    assert "fuse-launches" not in _families(ROUNDS)
    module = build_model(ROUNDS, "k.py", ast.parse(ROUNDS))
    assert ("init", "relax") in looped_steps(module)


def test_two_launches_in_sequence_still_hand_over_a_buffer():
    # without the loop, the init's buffer is read once by one launch: a fusion left undone
    once = ROUNDS.replace("    for rnd in range(n):\n", "    if True:\n").replace(
        "        if changed.item() == 0:\n            break\n", "")
    module = build_model(once, "k.py", ast.parse(once))
    assert ("init", "relax") not in looped_steps(module)


def test_a_module_constexpr_constant_is_a_module_integer():
    module = build_model(CHAIN.format(warps=1), "k.py", ast.parse(CHAIN.format(warps=1)))
    assert module.constants.get("STEPS") == 16


# each element's rank in a table its program walks, the walk as long as a count read from memory
RANK_WALK = HEADER + '''

@triton.jit
def rank(x, table, first, count, out, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    live = i < n
    v = tl.load(x + i, mask=live, other=0.0)
    start = tl.load(first + i, mask=live, other=0)
    cnt = tl.load(count + i, mask=live, other=0)
    below = tl.zeros([BLOCK], dtype=tl.int32)
    for k in range(0, {bound}):
        p = tl.load(table + start + k, mask=k < cnt, other=float("inf"))
        below += (p <= v).to(tl.int32)
    tl.store(out + i, below, mask=live)


def run(x, table, first, count):
    n = x.shape[0]
    out = torch.empty(n, dtype=torch.int32)
    rank[(triton.cdiv(n, 128),)](x, table, first, count, out, n, BLOCK=128)
    return out
'''


def _scan_confidence(source: str) -> float:
    return max(f.confidence for f in triage(source, "k.py", "cuda").findings
               if f.rewrite_family == "binary-search-sorted-bounds")


def test_a_table_walk_as_long_as_a_loaded_count_weighs_more_than_a_fixed_one():
    sized = _scan_confidence(RANK_WALK.format(bound="tl.max(cnt, axis=0)"))
    fixed = _scan_confidence(RANK_WALK.format(bound="64"))
    assert sized > fixed
    # and more than a data-dependent mask on the same walk, which it used to tie with
    masks = [f.confidence for f in triage(RANK_WALK.format(bound="tl.max(cnt, axis=0)"), "k.py", "cuda").findings
             if f.rewrite_family == "select-instead-of-data-mask"]
    assert all(sized > m for m in masks)


CHOICE = HEADER + '''

@triton.jit
def pick(a, b, out, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(a + i)
    y = tl.load(b + i)
    one = x + 1.0
    two = tl.sqrt(x * y)
    t = tl.where(x > y, one, two)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    acc = tl.where(x > 0, acc + y, acc)
    z = tl.where(x < y, x, 0.0)
    tl.store(out + i, t + acc + z)
'''


def test_a_select_between_two_computed_values_is_a_choice(tmp_path):
    from diagnose.profiling.trace import _choices

    path = tmp_path / "k.py"
    path.write_text(CHOICE)
    lines = CHOICE.splitlines()
    choice = next(n for n, line in enumerate(lines, 1) if "tl.where(x > y" in line)
    kept = next(n for n, line in enumerate(lines, 1) if "acc + y, acc" in line)
    filled = next(n for n, line in enumerate(lines, 1) if "x, 0.0)" in line)
    found = _choices(str(path))
    # a fresh result either way is a choice; keeping the old value or a constant fill throws work away
    assert choice in found and kept not in found and filled not in found


def test_a_trace_stride_on_the_gather_itself_does_not_overrule_it():
    from diagnose.evidence import Finding
    from diagnose.ladder import _same_access

    def finding(family: str, line: int, end: int | None = None) -> Finding:
        return Finding(tier=1, kind="pattern", card_id="", rewrite_family=family, message="",
                       confidence=0.7, location={"path": "k.py", "line": line, "end_line": end})

    gather = finding("contiguous-load-gather", 23, 24)
    assert _same_access(finding("coalesce-contiguous-axis", 23), gather)
    assert not _same_access(finding("coalesce-contiguous-axis", 40), gather)
    assert not _same_access(finding("coalesce-contiguous-axis", 23), finding("vectorize-loads", 23))


# a block of items per program, each item's state iterated in registers for a run-time number of
# rounds; the launch leaves num_warps at its default of 4 for a 32-item tile
HASH_ROUNDS = HEADER + '''

@triton.jit
def prepare(src, state, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(state + i, tl.load(src + i, mask=i < n, other=0) ^ 0x5BD1E995, mask=i < n)


@triton.jit
def rounds(state, salt, out, n, steps, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    c4 = tl.arange(0, 4)
    s = tl.sum(tl.where(c4 == 0, tl.load(salt + c4), 0))
    a = tl.load(state + i, mask=i < n, other=0).to(tl.uint32)
    b = a ^ s
    for _ in range(steps):
        {body}
    tl.store(out + i, (a ^ b).to(tl.int32), mask=i < n)


def run(src, salt, steps):
    n = src.shape[0]
    state = torch.empty_like(src)
    out = torch.empty_like(src)
    grid = (triton.cdiv(n, 32),)
    prepare[grid](src, state, n, BLOCK=32)
    rounds[grid](state, salt, out, n, steps, BLOCK=32)
    return out
'''
MIXING = "\n        ".join(["a = (a << 7) ^ (a >> 25) ^ b", "b = (b + a * 0x01000193) ^ (b >> 13)",
                         "a = a + (b ^ (a << 3)) + 0x9E3779B9", "b = (b << 11) ^ (b >> 21) ^ a"] * 5)


def _resolved(source: str) -> dict:
    return {k: {"BLOCK": 32, "num_warps": 4, "programs": 64} for k in ("prepare", "rounds")}


def test_duplicated_warps_over_an_arithmetic_loop_are_the_kernels_time():
    source = HASH_ROUNDS.format(body=MIXING)
    found = triage(source, "k.py", "cuda", resolved=_resolved(source)).findings
    warps = [f for f in found if f.rewrite_family == "num-warps-tuning"]
    assert warps and max(f.confidence for f in warps) >= 0.8
    # the hand-over to a kernel that computes for a run-time number of rounds is a sliver of it
    assert "fuse-launches" not in [f.rewrite_family for f in found]
    # a reduction over a 4-wide literal record does not make the 32-item block one row
    assert "multi-row-programs" not in [f.rewrite_family for f in found]


def test_a_light_loop_leaves_the_warps_finding_as_it_was():
    source = HASH_ROUNDS.format(body="a = a ^ b")
    found = triage(source, "k.py", "cuda", resolved=_resolved(source)).findings
    assert max(f.confidence for f in found if f.rewrite_family == "num-warps-tuning") == 0.5
    assert "fuse-launches" in [f.rewrite_family for f in found]


# one track per program: a position advanced by a velocity whose update reads the field at the
# position (an ODE integrated step by step), against a velocity stepped independently of it
TRACK = HEADER + '''

@triton.jit
def propagate(x0, field, steps, out, n_cells):
    t = tl.program_id(0)
    x = tl.load(x0 + t)
    ux = tl.load(x0 + t + 1)
    for k in range(0, tl.load(steps + t)):
        {update}
        x += 0.5 * ux
    tl.store(out + t, x)
'''
COUPLED = "ux = ux + 0.1 * tl.load(field + (x.to(tl.int32) % n_cells))"
FREE = "ux = ux * 0.9 + tl.load(field + k)"


def test_a_state_that_reads_the_running_sum_is_no_scan():
    assert "use-associative-scan" not in _families(TRACK.format(update=COUPLED))
    assert "use-associative-scan" in _families(TRACK.format(update=FREE))


INT_OUTER = HEADER + '''

@triton.jit
def dvh(dose, thr, out, n, P: tl.constexpr, BLOCK: tl.constexpr):
    pts = tl.program_id(0) * P + tl.arange(0, P)
    t = tl.load(thr + pts, other=0)
    hits = tl.zeros([P], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        d = tl.load(dose + offs, mask=offs < n, other=-1)
        above = d[None, :] > t[:, None]
        hits += tl.sum(above.to(tl.float32), axis=1)
    tl.store(out + pts, hits)
'''


def test_a_broadcast_integer_tile_compare_is_an_integer_compare_on_ascend():
    assert "float-compare-mask" in _families(INT_OUTER, "ascend")


def test_a_table_read_out_of_order_is_no_binary_search():
    from diagnose.profiling.trace import _unsorted

    assert _unsorted({"keys": {"execs": 10, "sorted": 2, "mean_run": 1.0}})
    assert not _unsorted({"keys": {"execs": 10, "sorted": 10, "mean_run": 1.0}})
    assert not _unsorted({})  # a float table: no keys recorded, nothing ruled out
