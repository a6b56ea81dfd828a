"""Session 30's general readings (issue 12), from the development misses between walking the
contiguous axis and transposing on chip (Ascend).

A tile read with its last axis strided is fixed one of two ways: when its values meet something
whose axes are fixed (a dot, a reshape or transpose, a store or a second tile whose last axis is
the unit-stride one), the contiguous orientation is loaded and turned on chip
(load-contiguous-transpose-on-chip); when it is only reduced, or stored back at the same
addresses, the whole computation can walk the contiguous axis instead and nothing needs turning
(coalesce-contiguous-axis). A tile with no unit-stride axis at all that is stored in another
order is a rearrangement, and a rearrangement is the transpose reading."""

from __future__ import annotations

import pytest

from diagnose.ladder import Options, diagnose, make_context
from diagnose.target import resolve_target
from diagnose.triage import triage
from tests.test_ir import ascend_python  # noqa: F401 - the fixture that builds the Ascend front end
from tests.test_ladder import make_task

HEADER = "import torch, triton, triton.language as tl\n"

# per-pixel magnitude over bands stored band-major: the [pixels, bands] tile is read with the
# band axis strided and reduced along it; loading [bands, pixels] and reducing along axis 0 is
# the fix, no transpose anywhere
REDUCED = HEADER + '''

@triton.jit
def magnitude_kernel(x_ptr, out_ptr, n_pix, NB: tl.constexpr, BLOCK_P: tl.constexpr):
    pix = tl.program_id(0) * BLOCK_P + tl.arange(0, BLOCK_P)
    bands = tl.arange(0, NB)
    x = tl.load(x_ptr + pix[:, None] + bands[None, :] * n_pix, mask=(pix < n_pix)[:, None], other=0.0)
    tl.store(out_ptr + pix, tl.sqrt(tl.sum(x * x, axis=1)), mask=pix < n_pix)


def run(x):
    nb, n_pix = x.shape
    out = torch.empty(n_pix, device=x.device, dtype=x.dtype)
    magnitude_kernel[(triton.cdiv(n_pix, 64),)](x, out, n_pix, NB=nb, BLOCK_P=64)
    return out
'''

# the same tile stored into a pixel-major output: the tile's order has to change on chip
STORED_TURNED = HEADER + '''

@triton.jit
def to_pixel_major_kernel(x_ptr, out_ptr, n_pix, NB: tl.constexpr, BLOCK_P: tl.constexpr):
    pix = tl.program_id(0) * BLOCK_P + tl.arange(0, BLOCK_P)
    bands = tl.arange(0, NB)
    x = tl.load(x_ptr + pix[:, None] + bands[None, :] * n_pix, mask=(pix < n_pix)[:, None], other=0.0)
    y = x * 2.0
    tl.store(out_ptr + pix[:, None] * NB + bands[None, :], y, mask=(pix < n_pix)[:, None])


def run(x):
    nb, n_pix = x.shape
    out = torch.empty(n_pix, nb, device=x.device, dtype=x.dtype)
    to_pixel_major_kernel[(triton.cdiv(n_pix, 64),)](x, out, n_pix, NB=nb, BLOCK_P=64)
    return out
'''

# an unpatchify-style copy: the tile read has no unit-stride axis (channels are the contiguous
# one and each program has one channel), and it is stored row-contiguous
REARRANGED = HEADER + '''

@triton.jit
def unpatch_kernel(x_ptr, out_ptr, n_w, C: tl.constexpr, PW: tl.constexpr, BLOCK_W: tl.constexpr):
    row = tl.program_id(0)
    c = row % C
    w = tl.arange(0, BLOCK_W)
    r = tl.arange(0, PW)
    m = (w < n_w)[:, None]
    vals = tl.load(x_ptr + (row // C) * n_w * PW * C + c + w[:, None] * (PW * C) + r[None, :] * C, mask=m, other=0.0)
    tl.store(out_ptr + row * n_w * PW + w[:, None] * PW + r[None, :], vals, mask=m)


def run(x, n_w):
    out = torch.empty(x.numel(), device=x.device, dtype=x.dtype)
    unpatch_kernel[(x.numel() // (n_w * 4),)](x, out, n_w, C=8, PW=4, BLOCK_W=64)
    return out
'''


def _first(source: str) -> str:
    findings = sorted(triage(source, "k.py", "ascend").findings, key=lambda f: -f.confidence)
    return findings[0].rewrite_family


def test_a_transposed_tile_only_reduced_is_walked_along_its_contiguous_axis():
    assert _first(REDUCED) == "coalesce-contiguous-axis"
    families = {f.rewrite_family for f in triage(REDUCED, "k.py", "ascend").findings}
    assert "load-contiguous-transpose-on-chip" in families  # the second reading stays


def test_a_transposed_tile_stored_in_the_other_order_is_turned_on_chip():
    assert _first(STORED_TURNED) == "load-contiguous-transpose-on-chip"


def test_a_transposed_tile_stored_back_at_its_own_addresses_is_walked_the_other_way():
    same = STORED_TURNED.replace("out_ptr + pix[:, None] * NB + bands[None, :]",
                                 "out_ptr + pix[:, None] + bands[None, :] * n_pix")
    assert _first(same) == "coalesce-contiguous-axis"


def test_a_transposed_tile_feeding_a_dot_is_turned_on_chip():
    dot = REDUCED.replace("tl.sum(x * x, axis=1)", "tl.sum(tl.dot(x, tl.trans(x)), axis=1)")
    assert _first(dot) == "load-contiguous-transpose-on-chip"


def test_a_tile_without_a_unit_axis_stored_row_contiguous_is_a_rearrangement():
    assert _first(REARRANGED) == "load-contiguous-transpose-on-chip"


def test_the_cuda_reading_of_a_transposed_tile_is_unchanged():
    findings = [f for f in triage(REDUCED, "k.py", "cuda").findings if f.rewrite_family == "coalesce-contiguous-axis"]
    assert findings and max(f.confidence for f in findings) == 0.4


# one program per atom, pairing its own coordinates with every atom of its molecule, whose
# x, y, z are read as three stride-3 fields: every program of the molecule loads the same
# partner fields again, and that re-reading is the cost to remove first
ATOM_PER_PROGRAM = HEADER + '''

@triton.jit
def pair_kernel(x, out, n, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    mol = row // n
    j = tl.arange(0, BLOCK_N)
    live = j < n
    xi = tl.load(x + row * 3)
    yi = tl.load(x + row * 3 + 1)
    xj = tl.load(x + (mol * n + j) * 3, mask=live, other=0.0)
    yj = tl.load(x + (mol * n + j) * 3 + 1, mask=live, other=0.0)
    zj = tl.load(x + (mol * n + j) * 3 + 2, mask=live, other=0.0)
    d = (xi - xj) * (xi - xj) + (yi - yj) * (yi - yj) + zj * 0.0
    tl.store(out + row, tl.sum(tl.sqrt(d), axis=0))


def run(x, n):
    atoms = x.shape[0]
    out = torch.empty(atoms, device=x.device, dtype=x.dtype)
    pair_kernel[(atoms,)](x, out, n, BLOCK_N=triton.next_power_of_2(n))
    return out
'''


def test_partner_fields_every_program_rereads_put_blocks_of_items_first():
    findings = sorted(triage(ATOM_PER_PROGRAM, "k.py", "ascend").findings, key=lambda f: -f.confidence)
    assert findings[0].rewrite_family == "multi-row-programs"
    fields = [f for f in findings if f.card_id == "ascend-interleaved-fields"]
    assert fields and fields[0].confidence < findings[0].confidence


# one program per mesh point whose tile is the point's variables padded to a power of two,
# walking its neighbours in loops: the tile spans a whole axis of one item and cannot grow
POINT_PER_PROGRAM = HEADER + '''

@triton.jit
def limiter_kernel(prim, adj_ptr, adj, lim, n_var, VARS: tl.constexpr):
    i = tl.program_id(0)
    v = tl.arange(0, VARS)
    vm = v < n_var
    ui = tl.load(prim + i * n_var + v, mask=vm, other=0.0)
    umax = ui
    for k in range(tl.load(adj_ptr + i), tl.load(adj_ptr + i + 1)):
        umax = tl.maximum(umax, tl.load(prim + tl.load(adj + k) * n_var + v, mask=vm, other=0.0))
    tl.store(lim + i * n_var + v, umax - ui, mask=vm)


def run(prim, adj_ptr, adj):
    n_points, n_var = prim.shape
    lim = torch.empty_like(prim)
    limiter_kernel[(n_points,)](prim, adj_ptr, adj, lim, n_var, VARS=triton.next_power_of_2(n_var), num_warps=1)
    return lim
'''


def test_a_whole_axis_tile_walking_its_items_neighbours_asks_for_more_items_per_program():
    findings = sorted(triage(POINT_PER_PROGRAM, "k.py", "cuda", resolved={"limiter_kernel": {"VARS": 8}}).findings,
                      key=lambda f: -f.confidence)
    assert findings[0].card_id == "common-row-per-program"
    assert "loops over ranges it reads from memory" in findings[0].message
    assert not [f for f in findings if f.card_id == "common-block-size"]


def test_a_small_constant_tile_in_the_same_kernel_is_still_a_block_size():
    fixed_block = POINT_PER_PROGRAM.replace("VARS=triton.next_power_of_2(n_var)", "VARS=8")
    findings = sorted(triage(fixed_block, "k.py", "cuda").findings, key=lambda f: -f.confidence)
    assert findings[0].card_id == "common-block-size"


# one bundle-adjustment edge per program: scalar gathers of its pose and point, and only the
# edge's own small outputs laid out as literal 2- and 8-lane aranges
EDGE_PER_PROGRAM = HEADER + '''

@triton.jit
def edge_kernel(poses, points, kf_idx, pt_idx, err, jac):
    e = tl.program_id(0)
    c2 = tl.arange(0, 2)
    c8 = tl.arange(0, 8)
    c = tl.load(kf_idx + e)
    j = tl.load(pt_idx + e)
    tx = tl.load(poses + 3 * c + 0)
    ty = tl.load(poses + 3 * c + 1)
    x = tl.load(points + 2 * j + 0) + tx
    y = tl.load(points + 2 * j + 1) + ty
    tl.store(err + 2 * e + c2, tl.where(c2 == 0, x, y))
    tl.store(jac + 6 * e + c8, tl.where(c8 == 0, x * y, tl.where(c8 == 1, -x, y)), mask=c8 < 6)


def run(poses, points, kf_idx, pt_idx):
    n = kf_idx.shape[0]
    err = torch.empty(n, 2, device=poses.device)
    jac = torch.empty(n, 6, device=poses.device)
    edge_kernel[(n,)](poses, points, kf_idx, pt_idx, err, jac)
    return err, jac
'''


def test_a_program_per_item_whose_only_tiles_are_its_small_record_is_a_scalar_program():
    findings = sorted(triage(EDGE_PER_PROGRAM, "k.py", "cuda").findings, key=lambda f: -f.confidence)
    assert findings[0].card_id == "common-row-per-program" and findings[0].confidence >= 0.8


def test_a_block_of_items_per_program_is_no_scalar_program():
    blocked = EDGE_PER_PROGRAM.replace("tl.arange(0, 8)", "tl.arange(0, 64)")
    assert "common-row-per-program" not in {f.card_id for f in triage(blocked, "k.py", "cuda").findings}


# one image per program against a tile of references: a weighted squared distance expanded into
# two products of the image's vectors with the reference tile, summed per reference
DISTANCE_PER_IMAGE = HEADER + '''

@triton.jit
def diff2_kernel(imgs, refs, w_ptr, out, n_ref, K, BR: tl.constexpr, BK: tl.constexpr):
    n = tl.program_id(0)
    r = tl.program_id(1) * BR + tl.arange(0, BR)
    acc = tl.zeros([BR], dtype=tl.float32)
    for k0 in range(0, K, BK):
        k = k0 + tl.arange(0, BK)
        w = tl.load(w_ptr + k, mask=k < K, other=0.0)
        x = tl.load(imgs + n * K + k, mask=k < K, other=0.0)
        a = tl.load(refs + r[:, None] * K + k[None, :], mask=(r < n_ref)[:, None] & (k < K)[None, :], other=0.0)
        acc += tl.sum((w)[None, :] * (a * a) + (-2.0 * w * x)[None, :] * a, axis=1)
    tl.store(out + n * n_ref + r, acc, mask=r < n_ref)


def run(imgs, refs, w):
    n_img, K = imgs.shape
    n_ref = refs.shape[0]
    out = torch.empty(n_img, n_ref, device=imgs.device)
    diff2_kernel[(n_img, triton.cdiv(n_ref, 64))](imgs, refs, w, out, n_ref, K, BR=64, BK=128)
    return out
'''


def test_an_expanded_distance_of_each_programs_vector_against_a_tile_is_a_matvec_per_row():
    cards = {f.card_id for f in triage(DISTANCE_PER_IMAGE, "k.py", "cuda").findings}
    assert "cuda-matvec-per-row" in cards


def test_an_outer_product_of_two_expanded_vectors_is_no_matvec():
    outer = DISTANCE_PER_IMAGE.replace(
        "tl.sum((w)[None, :] * (a * a) + (-2.0 * w * x)[None, :] * a, axis=1)",
        "tl.sum(x[None, :] * w[:, None], axis=1)")
    assert "cuda-matvec-per-row" not in {f.card_id for f in triage(outer, "k.py", "cuda").findings}


# weighted moments of D-component particles, one pass per component: each pass reads its
# component with stride D, the loop over k visiting every field of the records in turn
FIELD_PASSES = HEADER + '''

@triton.jit
def moments_kernel(W, X, mean, N, D: tl.constexpr, BN: tl.constexpr):
    b = tl.program_id(0)
    for k in range(D):
        acc = tl.zeros([BN], dtype=tl.float32)
        for start in range(0, N, BN):
            rows = start + tl.arange(0, BN)
            w = tl.load(W + b * N + rows, mask=rows < N, other=0.0)
            x = tl.load(X + b * N * D + rows * D + k, mask=rows < N, other=0.0)
            acc += w * x
        tl.store(mean + b * D + k, tl.sum(acc, axis=0))


def run(W, X):
    B, N, D = X.shape
    mean = torch.empty(B, D, device=X.device)
    moments_kernel[(B,)](W, X, mean, N, D=D, BN=1024)
    return mean
'''


def test_a_loop_that_reads_one_field_of_every_record_per_step_is_interleaved_fields():
    assert _first(FIELD_PASSES) == "load-contiguous-transpose-on-chip"
    [fields] = [f for f in triage(FIELD_PASSES, "k.py", "ascend").findings if f.card_id == "ascend-interleaved-fields"]
    assert "one per step of the loop" in fields.message


def test_a_loop_over_fewer_steps_than_the_record_is_no_field_walk():
    partial = FIELD_PASSES.replace("for k in range(D):", "for k in range(2):")
    assert "ascend-interleaved-fields" not in {f.card_id for f in triage(partial, "k.py", "ascend").findings}


@pytest.mark.slow
def test_a_reduced_transposed_tile_concludes_on_walking_the_contiguous_axis(tmp_path, monkeypatch,
                                                                             ascend_python):  # noqa: F811
    """The whole ladder (CPU trace, Ascend front end): the trace sees the tile use every sector,
    which does not refute an orientation claim, and the strided-memref symptom confirms walking
    the contiguous axis, not the transpose kept as a second reading."""
    monkeypatch.setenv("PASSWISE_CAPTURE_CACHE", str(tmp_path / "cache"))
    task = '''
import torch
META = {"name": "magnitude", "sizes": {"small": {"P": 4096}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(8, 4096, generator=g),)
def reference(x):
    return x.pow(2).sum(0).sqrt()
'''
    folder = make_task(tmp_path, "magnitude", task, REDUCED)
    ctx = make_context(resolve_target(str(folder)), "ascend",
                       Options(max_tier=3, trace=True, size="small", python_ascend=str(ascend_python)), open_kb=None)
    d = diagnose(ctx)
    assert d.conclusion is not None and d.conclusion.rewrite_family == "coalesce-contiguous-axis", d.reason
