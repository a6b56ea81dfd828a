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
