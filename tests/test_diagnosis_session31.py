"""Session 31's general readings (issue 12), from the development misses.

An element walk (a loop whose steps each load one value the loop indexes and reduce a tile to one
value) is a chain of latency-bound steps that one tile of elements per step replaces. When every
step also loads a tile the loop variable places, and no value the step loads places it, the step
moves a row and the scalar is that row's parameter (a scale, a width): the walk is one of rows,
its cost is the steps' transfers, and a step of several rows is the fix. A row placed through an
index the step loads (a block table) stays a walk of dependent lookups."""

from __future__ import annotations

from diagnose.ladder import Options, diagnose, make_context
from diagnose.target import resolve_target
from diagnose.triage import triage
from tests.test_ladder import make_task

HEADER = "import torch, triton, triton.language as tl\n"

# each step: one row of x the loop places, and that row's scale read beside it
ROW_WITH_SCALE = HEADER + '''

@triton.jit
def scaled_row_sum_kernel(x_ptr, scale_ptr, out_ptr, n_rows, L, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BLOCK)
    for r in range(pid, n_rows, nprog):
        x = tl.load(x_ptr + r * L + cols, mask=cols < L, other=0.0)
        s = tl.load(scale_ptr + r)
        tl.store(out_ptr + r, tl.sum(x * s, axis=0))


def run(x, scale):
    n_rows, L = x.shape
    out = torch.empty(n_rows, device=x.device, dtype=x.dtype)
    scaled_row_sum_kernel[(40,)](x, scale, out, n_rows, L, BLOCK=triton.next_power_of_2(L))
    return out
'''

# each step: a row found through the block table entry the step loads
ROW_THROUGH_INDEX = ROW_WITH_SCALE.replace(
    "x = tl.load(x_ptr + r * L + cols, mask=cols < L, other=0.0)\n        s = tl.load(scale_ptr + r)",
    "s = tl.load(scale_ptr + r)\n        x = tl.load(x_ptr + s.to(tl.int32) * L + cols, mask=cols < L, other=0.0)")


def _walk(source: str, backend: str):
    return [f for f in triage(source, "k.py", backend).findings if f.evidence.get("detector") == "scalar-loop"]


def test_an_element_walk_whose_steps_move_a_row_the_loop_places_is_a_row_walk():
    for backend in ("ascend", "cuda"):
        [walk] = _walk(ROW_WITH_SCALE, backend)
        assert walk.evidence["facts"].get("row_step") is True
        assert walk.confidence < 0.5


def test_a_row_placed_through_a_loaded_index_stays_an_element_walk():
    [walk] = _walk(ROW_THROUGH_INDEX, "ascend")
    assert "row_step" not in walk.evidence["facts"]
    assert walk.confidence >= 0.65


def test_the_traced_row_walk_outranks_the_element_walk(tmp_path, monkeypatch):
    """The whole tier-1 ladder with the CPU trace: the trace counts hundreds of one-element loads a
    program (the scales), but each sits beside a row the same step moves, so the walk does not
    raise the element reading; the trace's row-per-step reading ranks first."""
    monkeypatch.setenv("PASSWISE_CAPTURE_CACHE", str(tmp_path / "cache"))
    task = '''
import torch
META = {"name": "scaled_rows", "sizes": {"small": {"R": 16384}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(16384, 100, generator=g), torch.rand(16384, generator=g))
def reference(x, scale):
    return (x * scale[:, None]).sum(1)
'''
    folder = make_task(tmp_path, "scaled_rows", task, ROW_WITH_SCALE)
    ctx = make_context(resolve_target(str(folder)), "ascend",
                       Options(max_tier=1, trace=True, size="small"), open_kb=None)
    d = diagnose(ctx)
    walk = [f for f in d.tiers[0].findings if f.evidence.get("detector") == "scalar-loop"]
    assert walk and "measured_by_trace" not in walk[0].evidence
    assert d.ranking[0]["rewrite_family"] == "multi-row-programs", d.ranking


# A batch of small products: each site multiplies its own two 4-vectors ([B, 4, 1] * [B, 1, 4]),
# which no tensor core takes (a side under 16); a product with a weight every row shares
# ([B, 1, K] * [1, N, K]) is one.
PER_SITE_PRODUCTS = HEADER + '''

@triton.jit
def site_kernel(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    s = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    i = tl.arange(0, 4)
    m = (s < n)[:, None]
    a = tl.load(a_ptr + s[:, None] * 4 + i[None, :], mask=m, other=0.0)
    b = tl.load(b_ptr + s[:, None] * 4 + i[None, :], mask=m, other=0.0)
    c = tl.sum(a[:, :, None] * b[:, None, :], axis=2)
    tl.store(out_ptr + s[:, None] * 4 + i[None, :], c, mask=m)


def run(a, b):
    n = a.shape[0]
    out = torch.empty_like(a)
    site_kernel[(triton.cdiv(n, 64),)](a, b, out, n, BLOCK=64)
    return out
'''

SHARED_WEIGHT = HEADER + '''

@triton.jit
def rows_kernel(x_ptr, w_ptr, out_ptr, n, BLOCK: tl.constexpr):
    s = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    k = tl.arange(0, 16)
    m = (s < n)[:, None]
    x = tl.load(x_ptr + s[:, None] * 16 + k[None, :], mask=m, other=0.0)
    w = tl.load(w_ptr + k[:, None] * 16 + k[None, :])
    y = tl.sum(x[:, None, :] * w[None, :, :], axis=2)
    tl.store(out_ptr + s[:, None] * 16 + k[None, :], y, mask=m)


def run(a, b):
    n = a.shape[0]
    out = torch.empty_like(a)
    rows_kernel[(triton.cdiv(n, 64),)](a, b, out, n, BLOCK=64)
    return out
'''


def _traced(tmp_path, monkeypatch, name: str, source: str, inputs: str, backend: str = "cuda"):
    monkeypatch.setenv("PASSWISE_CAPTURE_CACHE", str(tmp_path / "cache"))
    task = f'''
import torch
META = {{"name": "{name}", "sizes": {{"small": {{}}}}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return {inputs}
def reference(*args):
    return None
'''
    folder = make_task(tmp_path, name, task, source)
    ctx = make_context(resolve_target(str(folder)), backend,
                       Options(max_tier=1, trace=True, size="small"), open_kb=None)
    return diagnose(ctx)


def test_a_batch_of_small_per_site_products_is_no_tensor_core_product(tmp_path, monkeypatch):
    d = _traced(tmp_path, monkeypatch, "sites", PER_SITE_PRODUCTS,
                "(torch.randn(512, 4, generator=g), torch.randn(512, 4, generator=g))")
    traced = [f for f in d.tiers[0].findings if f.kind == "trace"]
    assert traced, "the trace ran"
    assert "cuda-broadcast-matmul" not in {f.card_id for f in traced}


def test_a_product_with_a_shared_weight_is_still_a_tensor_core_product(tmp_path, monkeypatch):
    d = _traced(tmp_path, monkeypatch, "rows", SHARED_WEIGHT,
                "(torch.randn(512, 16, generator=g), torch.randn(16, 16, generator=g))")
    assert "cuda-broadcast-matmul" in {f.card_id for f in d.tiers[0].findings if f.kind == "trace"}


# one tap window's wrapped grid index decoded once per program, then loaded for every coil
HOISTED_DECODE = HEADER + '''

@triton.jit
def taps_kernel(grid_ptr, out_ptr, n_coils, G, TAPS: tl.constexpr):
    m = tl.program_id(0)
    t = tl.arange(0, TAPS)
    g = (m + t) % G
    for c in range(n_coils):
        v = tl.load(grid_ptr + c * G + g)
        tl.store(out_ptr + c * G + m, tl.sum(v, axis=0))


def run(grid):
    n_coils, G = grid.shape
    out = torch.empty_like(grid)
    taps_kernel[(G,)](grid, out, n_coils, G, TAPS=16)
    return out
'''


def _decodes(source: str, backend: str = "cuda") -> list:
    return [f for f in triage(source, "k.py", backend).findings if f.evidence.get("detector") == "div-mod-index"]


def test_a_decode_before_the_loop_that_reuses_it_is_paid_once_per_program():
    [decode] = _decodes(HOISTED_DECODE)
    assert decode.confidence <= 0.45


def test_a_decode_inside_the_loop_is_paid_at_every_access():
    inside = HOISTED_DECODE.replace("    g = (m + t) % G\n    for c in range(n_coils):\n",
                                    "    for c in range(n_coils):\n        g = (m + t) % G\n")
    [decode] = _decodes(inside)
    assert decode.confidence >= 0.6


def test_names_unpacked_from_one_value_are_bound_to_it():
    import ast as _ast

    from diagnose.triage.detectors.memory import bound_to_call
    from diagnose.triage.detectors.model import build_model
    source = HEADER + '''
@triton.jit
def k(coord, out):
    ky, kx = tl.split(tl.load(coord + tl.arange(0, 2)))
    tl.store(out, ky + kx)
'''
    module = build_model(source, "k.py", _ast.parse(source))
    assert {"ky", "kx"} <= bound_to_call(module.kernels["k"], "load")


# each step moves a [16 households, 8 slots] tile, the steps strided across the grid: the tile
# already spans several rows, so a bigger block of rows, not rows a step, is the knob
SEVERAL_ROWS_A_STEP = HEADER + '''

@triton.jit
def household_kernel(x_ptr, out_ptr, H, BLOCK_H: tl.constexpr, SLOTS: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    slot = tl.arange(0, SLOTS)
    for blk in range(pid, tl.cdiv(H, BLOCK_H), nprog):
        hh = blk * BLOCK_H + tl.arange(0, BLOCK_H)
        m = (hh < H)[:, None]
        idx = hh[:, None] * SLOTS + slot[None, :]
        x = tl.load(x_ptr + idx, mask=m, other=0.0)
        tl.store(out_ptr + idx, tl.sum(x, axis=1)[:, None] - x, mask=m)


def run(x):
    H, SLOTS = x.shape
    out = torch.empty_like(x)
    household_kernel[(40,)](x, out, H, BLOCK_H=16, SLOTS=SLOTS)
    return out
'''


def test_steps_of_a_tile_spanning_several_rows_ask_for_a_bigger_block(tmp_path, monkeypatch):
    d = _traced(tmp_path, monkeypatch, "households", SEVERAL_ROWS_A_STEP,
                "(torch.randn(16384, 8, generator=g),)", backend="ascend")
    cards = {f.card_id for f in d.tiers[0].findings if f.kind == "trace"}
    assert "ascend-small-dma-tile" in cards and "common-row-per-program" not in cards


# every step reads one element position (a walk of scalar loads) and loads a row of samples
# masked by an aperture around the program's pixels: most steps have every lane masked off
APERTURE_LOOP = HEADER + '''

@triton.jit
def aperture_kernel(x_ptr, pos_ptr, out_ptr, n_pix, n_elem, BLOCK: tl.constexpr, T: tl.constexpr):
    pix = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    t = tl.arange(0, T)
    acc = tl.zeros([BLOCK, T], dtype=tl.float32)
    for e in range(n_elem):
        xe = tl.load(pos_ptr + e)
        use = (tl.abs(xe - pix.to(tl.float32)) < 32.0) & (pix < n_pix)
        acc += tl.load(x_ptr + (e * n_pix + pix[:, None]) * T + t[None, :], mask=use[:, None], other=0.0)
    tl.store(out_ptr + pix[:, None] * T + t[None, :], acc, mask=(pix < n_pix)[:, None])


def run(x, pos):
    n_elem, n_pix, T = x.shape
    out = torch.empty(n_pix, T, device=x.device, dtype=x.dtype)
    aperture_kernel[(triton.cdiv(n_pix, 64),)](x, pos, out, n_pix, n_elem, BLOCK=64, T=T)
    return out
'''


def test_steps_that_do_nothing_in_a_walk_are_a_share_of_its_steps(tmp_path, monkeypatch):
    """The trace counts a walk of one-element loads (the positions) and, in the same loop, steps
    whose lanes are all masked off: skipping those steps shortens the walk too, so their share
    is not scaled down to the traffic's part of the time, and skip-masked-tiles ranks first."""
    d = _traced(tmp_path, monkeypatch, "aperture", APERTURE_LOOP,
                "(torch.randn(512, 4096, 16, generator=g), torch.arange(512, dtype=torch.float32) * 8)")
    [idle] = [f for f in d.tiers[0].findings if f.card_id == "common-causal-full-scan" and f.kind == "trace"]
    assert "walk_scaled" not in idle.evidence
    assert d.ranking[0]["rewrite_family"] == "skip-masked-tiles", d.ranking
