"""Spherical GTO values on grid points, shells launched per (l, nprim) group (gpu4pyscf eval_ao layout)."""
import torch
import triton
import triton.language as tl

BLOCK_S = 16      # shells per tile
BLOCK_G = 128     # grid points per tile


@triton.jit
def _gto_sph(coords, ngrids, shl_xyz, shl_exp, shl_coef, maxp, ao_ptr, shl_ao, first, count,
             L: tl.constexpr, NPRIM: tl.constexpr, BLOCK_S: tl.constexpr, BLOCK_G: tl.constexpr):
    g = tl.program_id(0) * BLOCK_G + tl.arange(0, BLOCK_G)
    j = tl.program_id(1) * BLOCK_S + tl.arange(0, BLOCK_S)
    g_ok = g < ngrids
    s_ok = j < count
    sh = first + j
    gx = tl.load(coords + g, mask=g_ok, other=0.0)
    gy = tl.load(coords + ngrids + g, mask=g_ok, other=0.0)
    gz = tl.load(coords + 2 * ngrids + g, mask=g_ok, other=0.0)
    ax = tl.load(shl_xyz + sh * 3, mask=s_ok, other=0.0)
    ay = tl.load(shl_xyz + sh * 3 + 1, mask=s_ok, other=0.0)
    az = tl.load(shl_xyz + sh * 3 + 2, mask=s_ok, other=0.0)
    x = gx[None, :] - ax[:, None]
    y = gy[None, :] - ay[:, None]
    z = gz[None, :] - az[:, None]
    r2 = x * x + y * y + z * z
    rad = tl.zeros([BLOCK_S, BLOCK_G], dtype=tl.float32)
    for p in tl.static_range(NPRIM):
        alpha = tl.load(shl_exp + sh * maxp + p, mask=s_ok, other=0.0)
        coef = tl.load(shl_coef + sh * maxp + p, mask=s_ok, other=0.0)
        rad += coef[:, None] * tl.exp(-alpha[:, None] * r2)

    ok = s_ok[:, None] & g_ok[None, :]
    # spherical components combined in registers and stored at the shell's rows of ao
    row = tl.load(shl_ao + sh, mask=s_ok, other=0)
    dst = ao_ptr + row[:, None] * ngrids + g[None, :]
    if L == 0:
        tl.store(dst, 0.282094791773878143 * rad, mask=ok)
    elif L == 1:
        pr = 0.488602511902919921 * rad
        tl.store(dst, x * pr, mask=ok)
        tl.store(dst + ngrids, y * pr, mask=ok)
        tl.store(dst + 2 * ngrids, z * pr, mask=ok)
    else:
        xr = x * rad
        yr = y * rad
        xx = x * xr
        yy = y * yr
        zz = z * z * rad
        # libcint's d rows, m = -2 .. 2
        tl.store(dst, 1.092548430592079070 * (y * xr), mask=ok)
        tl.store(dst + ngrids, 1.092548430592079070 * (z * yr), mask=ok)
        tl.store(dst + 2 * ngrids, 0.315391565252520002 * (2.0 * zz - xx - yy), mask=ok)
        tl.store(dst + 3 * ngrids, 1.092548430592079070 * (z * xr), mask=ok)
        tl.store(dst + 4 * ngrids, 0.546274215296039535 * (xx - yy), mask=ok)


def run(coords, shl_xyz, shl_exp, shl_coef, shl_ao, groups, nao):
    ngrids = coords.shape[1]
    maxp = shl_exp.shape[1]
    ao = torch.empty((nao, ngrids), device=coords.device, dtype=torch.float32)
    for l, nprim, first, count in groups:
        grid = (triton.cdiv(ngrids, BLOCK_G), triton.cdiv(count, BLOCK_S))
        _gto_sph[grid](coords, ngrids, shl_xyz, shl_exp, shl_coef, maxp, ao, shl_ao, first, count,
                       L=l, NPRIM=nprim, BLOCK_S=BLOCK_S, BLOCK_G=BLOCK_G, num_warps=4)
    return ao
