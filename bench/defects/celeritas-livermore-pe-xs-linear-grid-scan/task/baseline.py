"""Photoelectric macroscopic cross section and step limit from per-element Livermore tables."""
import torch
import triton
import triton.language as tl

BLOCK = 128


@triton.jit
def _pe_macro_xs(energy, material, n_mfp, grid, xs, n_pts, mat_el, mat_dens, macro, step, n,
                 G: tl.constexpr, LOG2_G: tl.constexpr, MAX_EL: tl.constexpr, BLOCK: tl.constexpr):
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
        # bin = last grid point <= E: binary search keeping grid[lo] <= E < grid[hi] (or hi = npt - 1)
        lo = tl.zeros([BLOCK], dtype=tl.int32)
        hi = npt - 1
        for _ in tl.static_range(LOG2_G):
            mid = (lo + hi) >> 1
            g = tl.load(grid + row + mid, mask=ok & has, other=0.0)
            right = g <= ec
            lo = tl.where(right, mid, lo)
            hi = tl.where(right, hi, mid)
        i = tl.minimum(lo, npt - 2)
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
                                          macro, step, n, G=grid_len, LOG2_G=(grid_len - 1).bit_length(),
                                          MAX_EL=mat_el.shape[1], BLOCK=BLOCK, num_warps=4)
    return macro, step
