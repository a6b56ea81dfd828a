"""Session 42: behaviour added for issue 12 (generalization), each test on the idiom, not a case."""

from __future__ import annotations

from pathlib import Path

from diagnose.ladder import _read_by_two
from diagnose.profiling.trace import run_trace
from diagnose.triage import triage
from tests.test_diagnosis_session26 import _task, traced

HEADER = "import torch\nimport triton\nimport triton.language as tl\n"

# a separable filter: one pass per axis, each reading what the one before wrote, every pass
# reading the same few taps
PASSES = HEADER + '''

@triton.jit
def smooth(src, dst, taps, n, stride, TAPS: tl.constexpr, BLOCK: tl.constexpr):
    v = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for k in tl.static_range(TAPS):
        q = v + (k - TAPS // 2) * stride
        w = tl.load(taps + k)
        acc += w * tl.load(src + q, mask=(q >= 0) & (q < n), other=0.0)
    tl.store(dst + v, acc, mask=v < n)


def run(x, taps):
    a = torch.empty_like(x)
    b = torch.empty_like(x)
    n = x.numel()
    for src, dst, stride in {passes}:
        smooth[(triton.cdiv(n, 256),)](src, dst, taps, n, stride, TAPS=taps.shape[0], BLOCK=256)
    return a
'''
CHAIN = "((x, a, 1), (a, b, 32), (b, a, 1024))"  # each pass reads the last one's output
REREAD = "((x, a, 1), (x, b, 32), (x, a, 1024))"  # every pass reads the input again

PASSES_TASK = '''
import torch
META = {"sizes": {"small": {"n": 4096}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(4, 32, 32, generator=g).to(device), torch.rand(5, generator=g).to(device))
def reference(x, taps):
    return x
'''


def _launches_read_the_same_bytes(root: Path, name: str, passes: str) -> bool:
    task = _task(root, name, PASSES_TASK, PASSES.replace("{passes}", passes))
    report = run_trace(task, task / "baseline.py", size="small")
    mine = [i for i, x in enumerate(report["launches"]) if x["kernel"] == "smooth"]
    assert len(mine) == 3
    return _read_by_two(report, mine)


def test_launches_sharing_only_a_small_table_do_not_read_their_input_twice(tmp_path):
    """A loop of dependent passes (each reads what the last wrote) shares nothing but the taps
    every pass reads; a loop whose every launch reads the same input reads it again. The old
    reading spanned each launch's loads from its lowest buffer to its highest, so any two
    launches reading the small table overlapped."""
    assert not _launches_read_the_same_bytes(tmp_path, "chain", CHAIN)
    assert _launches_read_the_same_bytes(tmp_path, "reread", REREAD)


# each row's statistic over its neighbours' rows, gathered as a rank-3 tile: the tile's address
# and its mask broadcast index tiles to rank 3, and no two values are multiplied
GATHER = HEADER + '''

@triton.jit
def spread(dist, nbr, out, N, K, BR: tl.constexpr, BK: tl.constexpr):
    rows = tl.program_id(0) * BR + tl.arange(0, BR)
    m = tl.arange(0, BK)
    mask = (rows < N)[:, None] & (m < K)[None, :]
    nb = tl.load(nbr + rows[:, None] * K + m[None, :], mask=mask, other=0)
    {gather}
    tl.store(out + rows, tl.sum(tl.sum(d_nb, axis=2), axis=1), mask=rows < N)


def run(dist, nbr):
    n, k = dist.shape
    out = torch.empty(n, device=dist.device)
    spread[(triton.cdiv(n, 8),)](dist, nbr, out, n, k, BR=8, BK=triton.next_power_of_2(k))
    return out
'''
IN_PLACE = ("mask3 = mask[:, :, None] & (m < K)[None, None, :]\n"
            "    d_nb = tl.load(dist + nb[:, :, None] * K + m[None, None, :], mask=mask3, other=0.0)")
# the same rank-3 shapes, as a product of two tiles summed over the neighbours' axis
PRODUCT = ("w = tl.load(dist + rows[:, None] * K + m[None, :], mask=mask, other=0.0)\n"
           "    g = tl.load(dist + nb * K, mask=mask, other=0.0)\n"
           "    d_nb = w[:, :, None] * g[:, None, :]")

GATHER_TASK = '''
import torch
META = {"sizes": {"small": {"n": 64}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(64, 20, generator=g).to(device), torch.randint(0, 64, (64, 20), generator=g).to(device))
def reference(dist, nbr):
    return dist.sum(1)
'''


def test_a_rank3_gathers_address_and_mask_written_in_place_are_no_matrix_product(tmp_path):
    gathered = traced(tmp_path, "gather", GATHER_TASK, GATHER.replace("{gather}", IN_PLACE), "ascend")
    assert "use-dot-for-broadcast-sum" not in {f.rewrite_family for f in gathered}
    product = traced(tmp_path, "product", GATHER_TASK, GATHER.replace("{gather}", PRODUCT), "ascend")
    assert "use-dot-for-broadcast-sum" in {f.rewrite_family for f in product}


# a separable 8x8 transform per block: [B, V, U, 1] * [1, 1, U, X] summed over U; the basis is
# shared by every block, so the product is one [B * V, U] @ [U, X] with 8-wide sides
TRANSFORM = HEADER + '''

@triton.jit
def idct(coef, basis, out, n_blocks, BB: tl.constexpr):
    blk = tl.program_id(0) * BB + tl.arange(0, BB)
    r = tl.arange(0, 8)
    k = r[:, None] * 8 + r[None, :]
    ok = blk < n_blocks
    offs = blk[:, None, None] * 64 + k[None, :, :]
    f = tl.load(coef + offs, mask=ok[:, None, None], other=0.0)
    a = tl.load(basis + k)
    t = tl.sum({product}, axis=2)
    tl.store(out + offs, t, mask=ok[:, None, None])


def run(coef, basis):
    out = torch.empty_like(coef)
    idct[(triton.cdiv(coef.shape[0], 16),)](coef, basis, out, coef.shape[0], BB=16)
    return out
'''
TRANSFORM_TASK = '''
import torch
META = {"sizes": {"small": {"n": 64}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(64, 8, 8, generator=g).to(device), torch.rand(8, 8, generator=g).to(device))
def reference(coef, basis):
    return coef @ basis
'''


def test_a_rank4_product_whose_operands_share_only_the_summed_axis_is_a_matrix_product(tmp_path):
    """Eight-wide sides are no batch of small products when one operand is shared by every block."""
    shared = traced(tmp_path, "shared", TRANSFORM_TASK,
                    TRANSFORM.replace("{product}", "f[:, :, :, None] * a[None, None, :, :]"))
    assert "use-dot-for-broadcast-sum" in {f.rewrite_family for f in shared}
    # each block with its own 8x8 operand: a batch of small products no tensor core multiplies
    own = traced(tmp_path, "own", TRANSFORM_TASK,
                 TRANSFORM.replace("{product}", "f[:, :, :, None] * f[:, None, :, :]"))
    assert "use-dot-for-broadcast-sum" not in {f.rewrite_family for f in own}


# atomics whose lanes arrive grouped by address: into a few bins filled again on every step
# (a histogram), or into keys that only grow (segments, each reached by one run)
BINS = HEADER + '''

@triton.jit
def binned(vals, out, N, BLOCK: tl.constexpr):
    for start in range(tl.program_id(0) * BLOCK, N, tl.num_programs(0) * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        ok = offs < N
        v = tl.load(vals + offs, mask=ok, other=0.0)
        tl.atomic_add(out + {key}, v, mask=ok)


def run(vals):
    out = torch.zeros(vals.numel(), device=vals.device)
    binned[(4,)](vals, out, vals.numel(), BLOCK=128)
    return out
'''
BINS_TASK = '''
import torch
META = {"sizes": {"small": {"n": 16384}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    return (torch.rand(16384, generator=torch.Generator().manual_seed(seed)).to(device),)
def reference(vals):
    return vals
'''


def test_grouped_atomics_that_return_to_a_few_bins_are_a_histogram_not_sorted_keys(tmp_path):
    few = traced(tmp_path, "few", BINS_TASK, BINS.replace("{key}", "(offs // 32) % 8"))
    [table] = [f for f in few if f.card_id == "common-scatter-atomics"]
    assert table.rewrite_family == "aggregate-before-atomics"
    assert table.evidence["facts"]["addresses"] <= 8 and table.evidence["facts"]["revisits"] >= 4
    assert "segment-reduce-sorted-keys" not in {f.rewrite_family for f in few}
    # keys that only grow reach each address in one run: a segment reduction
    grown = traced(tmp_path, "grown", BINS_TASK, BINS.replace("{key}", "offs // 16"))
    assert "segment-reduce-sorted-keys" in {f.rewrite_family for f in grown}
    assert "aggregate-before-atomics" not in {f.rewrite_family for f in grown}


def test_a_confirmed_atomic_reduction_is_refined_by_bins_the_trace_saw_revisited():
    from diagnose.evidence import Finding
    from diagnose.ladder import _fills_few_bins

    reduction = Finding(tier=1, kind="pattern", card_id="ascend-atomic-reduction",
                        rewrite_family="tree-reduction-not-atomics", message="atomics", confidence=0.7)

    def scatter(facts: dict) -> Finding:
        return Finding(tier=1, kind="trace", card_id="common-scatter-atomics",
                       rewrite_family="aggregate-before-atomics", message="scatter", confidence=0.7,
                       evidence={"facts": facts})

    assert _fills_few_bins(scatter({"atomics": 90000, "addresses": 64, "revisits": 6.0}), reduction)
    # one atomic per element into many addresses says nothing against a confirmed reduction
    assert not _fills_few_bins(scatter({"atomics": 90000}), reduction)


# a loop over levels whose first level takes a boundary value in place of the interior formula
LEVELS = HEADER + '''

@triton.jit
def levels(e, g, out, n_cols, Mz, BLOCK: tl.constexpr):
    cols = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = cols < n_cols
    gf = tl.load(g + cols, mask=ok, other=0.0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for k in range(Mz):
        x = tl.load(e + cols * Mz + k, mask=ok, other=0.0)
        y = tl.load(g + cols * Mz + k, mask=ok, other=0.0)
        {body}
    tl.store(out + cols, acc, mask=ok)
'''


def _gated(source: str) -> list:
    return [f for f in triage(source, "k.py", "ascend").findings if f.card_id == "common-gated-iteration"]


def test_a_boundary_level_selected_by_the_loop_index_discards_no_iteration():
    """`tl.where(k == 0, -gf, interior)`: one level takes the boundary value; every other level keeps
    what it loaded, so no step's loads are paid for nothing."""
    assert not _gated(LEVELS.replace("{body}", "acc += tl.where(k == 0, -gf, x * y)"))
    # the loaded tile kept on one level only and dropped on all the others: a gate
    assert _gated(LEVELS.replace("{body}", "acc = tl.where(k == 3, x * y, acc)"))


# sixteen columns walked one level per step, each step storing its level: a window handed on
# from step to step, or a running value that depends on its own last value
WINDOW = HEADER + '''

@triton.jit
def walk(e, out, n_cols, Mz, BLOCK: tl.constexpr):
    cols = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = cols < n_cols
    prev = tl.load(e + cols * Mz, mask=ok, other=0.0)
    cur = prev
    for k in range(Mz - 1):
        nxt = tl.load(e + cols * Mz + k + 1, mask=ok, other=0.0)
        {carry}
        tl.store(out + cols * Mz + k, cur, mask=ok)


def run(e):
    out = torch.empty_like(e)
    walk[(triton.cdiv(e.shape[0], 16),)](e, out, e.shape[0], e.shape[1], BLOCK=16)
    return out
'''
WINDOW_TASK = '''
import torch
META = {"sizes": {"small": {"n": 64}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    return (torch.rand(64, 128, generator=torch.Generator().manual_seed(seed)).to(device),)
def reference(e):
    return e
'''


def test_a_window_handed_on_from_step_to_step_is_no_recurrence(tmp_path):
    shifted = traced(tmp_path, "shift", WINDOW_TASK,
                     WINDOW.replace("{carry}", "cur = (prev + nxt) * 0.5\n        prev = nxt"), "ascend")
    assert "use-associative-scan" not in {f.rewrite_family for f in shifted}
    running = traced(tmp_path, "run", WINDOW_TASK,
                     WINDOW.replace("{carry}", "cur = cur * 0.5 + nxt\n        prev = nxt"), "ascend")
    assert "use-associative-scan" in {f.rewrite_family for f in running}
