"""Photoelectric macroscopic cross section and step limit from per-element Livermore tables."""
import torch
import triton
import triton.language as tl

BLOCK = 128
CHUNK = 64


@triton.jit
def _pe_macro_xs(energy, material, n_mfp, grid, xs, n_pts, mat_el, mat_dens, macro, step, n,
                 G: tl.constexpr, MAX_EL: tl.constexpr, BLOCK: tl.constexpr, CHUNK: tl.constexpr):
    pid = tl.program_id(0)
    t = pid * BLOCK + tl.arange(0, BLOCK)
    ok = t < n
    e = tl.load(energy + t, mask=ok, other=1.0)
    mat = tl.load(material + t, mask=ok, other=0)
    sigma = tl.zeros([BLOCK], dtype=tl.float32)
    for j in tl.static_range(MAX_EL):
        el = tl.load(mat_el + mat * MAX_EL + j, mask=ok, other=-1)
        dens = tl.load(mat_dens + mat * MAX_EL + j, mask=ok, other=0.0)
        has = el >= 0
        el = tl.maximum(el, 0)
        npt = tl.load(n_pts + el, mask=ok, other=2)
        row = el * G
        e_lo = tl.load(grid + row, mask=ok, other=1.0)
        e_hi = tl.load(grid + row + npt - 1, mask=ok, other=1.0)
        ec = tl.minimum(tl.maximum(e, e_lo), e_hi)
        # bin = (number of grid points <= E) - 1; padding is +inf and never counts
        below = tl.zeros([BLOCK], dtype=tl.int32)
        for c in range(0, G, CHUNK):
            k = c + tl.arange(0, CHUNK)
            g = tl.load(grid + row[:, None] + k[None, :], mask=(ok & has)[:, None], other=float("inf"))
            below += tl.sum((g <= ec[:, None]).to(tl.int32), axis=1)
        i = tl.minimum(tl.maximum(below - 1, 0), npt - 2)
        e0 = tl.load(grid + row + i, mask=ok, other=0.0)
        e1 = tl.load(grid + row + i + 1, mask=ok, other=1.0)
        x0 = tl.load(xs + row + i, mask=ok, other=0.0)
        x1 = tl.load(xs + row + i + 1, mask=ok, other=0.0)
        frac = (ec - e0) / (e1 - e0)
        sigma += tl.where(has, dens * (x0 + frac * (x1 - x0)), 0.0)
    mfp = tl.load(n_mfp + t, mask=ok, other=0.0)
    tl.store(macro + t, sigma, mask=ok)
    tl.store(step + t, mfp / sigma, mask=ok)


def run(energy, material, n_mfp, grid, xs, n_pts, mat_el, mat_dens) -> tuple:
    n = energy.shape[0]
    macro = torch.empty_like(energy)
    step = torch.empty_like(energy)
    grid_len = grid.shape[1]
    _pe_macro_xs[(triton.cdiv(n, BLOCK),)](energy, material, n_mfp, grid, xs, n_pts, mat_el, mat_dens,
                                          macro, step, n, G=grid_len, MAX_EL=mat_el.shape[1],
                                          BLOCK=BLOCK, CHUNK=CHUNK, num_warps=4)
    return macro, step
