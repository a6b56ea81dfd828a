"""Spherical GTO values on grid points, shells launched per (l, nprim) group (gpu4pyscf eval_ao layout)."""
import torch
import triton
import triton.language as tl

BLOCK_S = 16      # shells per tile
BLOCK_G = 128     # grid points per tile


@triton.jit
def _gto_cart(coords, ngrids, shl_xyz, shl_exp, shl_coef, maxp, cart_ptr, first, count,
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
    # Cartesian components of each shell, stored as consecutive rows of the group's cart block
    if L == 0:
        dst = cart_ptr + j[:, None] * ngrids + g[None, :]
        tl.store(dst, rad, mask=ok)
    elif L == 1:
        dst = cart_ptr + (3 * j)[:, None] * ngrids + g[None, :]
        tl.store(dst, x * rad, mask=ok)
        tl.store(dst + ngrids, y * rad, mask=ok)
        tl.store(dst + 2 * ngrids, z * rad, mask=ok)
    else:
        dst = cart_ptr + (6 * j)[:, None] * ngrids + g[None, :]
        xr = x * rad
        yr = y * rad
        tl.store(dst, x * xr, mask=ok)                 # xx
        tl.store(dst + ngrids, y * xr, mask=ok)        # xy
        tl.store(dst + 2 * ngrids, z * xr, mask=ok)    # xz
        tl.store(dst + 3 * ngrids, y * yr, mask=ok)    # yy
        tl.store(dst + 4 * ngrids, z * yr, mask=ok)    # yz
        tl.store(dst + 5 * ngrids, z * z * rad, mask=ok)  # zz


@triton.jit
def _cart2sph(cart_ptr, ao_ptr, shl_ao, ngrids, first, count,
              L: tl.constexpr, BLOCK_S: tl.constexpr, BLOCK_G: tl.constexpr):
    g = tl.program_id(0) * BLOCK_G + tl.arange(0, BLOCK_G)
    j = tl.program_id(1) * BLOCK_S + tl.arange(0, BLOCK_S)
    g_ok = g < ngrids
    s_ok = j < count
    ok = s_ok[:, None] & g_ok[None, :]
    row = tl.load(shl_ao + first + j, mask=s_ok, other=0)
    dst = ao_ptr + row[:, None] * ngrids + g[None, :]
    if L == 0:
        src = cart_ptr + j[:, None] * ngrids + g[None, :]
        tl.store(dst, 0.282094791773878143 * tl.load(src, mask=ok, other=0.0), mask=ok)
    elif L == 1:
        src = cart_ptr + (3 * j)[:, None] * ngrids + g[None, :]
        tl.store(dst, 0.488602511902919921 * tl.load(src, mask=ok, other=0.0), mask=ok)
        tl.store(dst + ngrids, 0.488602511902919921 * tl.load(src + ngrids, mask=ok, other=0.0), mask=ok)
        tl.store(dst + 2 * ngrids, 0.488602511902919921 * tl.load(src + 2 * ngrids, mask=ok, other=0.0), mask=ok)
    else:
        src = cart_ptr + (6 * j)[:, None] * ngrids + g[None, :]
        xx = tl.load(src, mask=ok, other=0.0)
        xy = tl.load(src + ngrids, mask=ok, other=0.0)
        xz = tl.load(src + 2 * ngrids, mask=ok, other=0.0)
        yy = tl.load(src + 3 * ngrids, mask=ok, other=0.0)
        yz = tl.load(src + 4 * ngrids, mask=ok, other=0.0)
        zz = tl.load(src + 5 * ngrids, mask=ok, other=0.0)
        # libcint's d rows, m = -2 .. 2
        tl.store(dst, 1.092548430592079070 * xy, mask=ok)
        tl.store(dst + ngrids, 1.092548430592079070 * yz, mask=ok)
        tl.store(dst + 2 * ngrids, 0.315391565252520002 * (2.0 * zz - xx - yy), mask=ok)
        tl.store(dst + 3 * ngrids, 1.092548430592079070 * xz, mask=ok)
        tl.store(dst + 4 * ngrids, 0.546274215296039535 * (xx - yy), mask=ok)


def run(coords, shl_xyz, shl_exp, shl_coef, shl_ao, groups, nao):
    ngrids = coords.shape[1]
    maxp = shl_exp.shape[1]
    ncart = sum(count * (l + 1) * (l + 2) // 2 for l, _, _, count in groups)
    cart = torch.empty((ncart, ngrids), device=coords.device, dtype=torch.float32)
    ao = torch.empty((nao, ngrids), device=coords.device, dtype=torch.float32)
    base = 0
    for l, nprim, first, count in groups:
        grid = (triton.cdiv(ngrids, BLOCK_G), triton.cdiv(count, BLOCK_S))
        _gto_cart[grid](coords, ngrids, shl_xyz, shl_exp, shl_coef, maxp, cart[base:], first, count,
                        L=l, NPRIM=nprim, BLOCK_S=BLOCK_S, BLOCK_G=BLOCK_G, num_warps=4)
        base += count * (l + 1) * (l + 2) // 2
    base = 0
    for l, nprim, first, count in groups:
        grid = (triton.cdiv(ngrids, BLOCK_G), triton.cdiv(count, BLOCK_S))
        _cart2sph[grid](cart[base:], ao, shl_ao, ngrids, first, count,
                        L=l, BLOCK_S=BLOCK_S, BLOCK_G=BLOCK_G, num_warps=4)
        base += count * (l + 1) * (l + 2) // 2
    return ao
