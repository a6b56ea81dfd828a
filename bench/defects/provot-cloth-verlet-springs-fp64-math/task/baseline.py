"""Provot mass-spring cloth: one position-Verlet step over a [BH, BW] vertex tile per program."""
import torch
import triton
import triton.language as tl

K_STRUCT = tl.constexpr(0.2)
K_SHEAR = tl.constexpr(0.1)
K_BEND = tl.constexpr(0.05)
DAMP = tl.constexpr(0.99)
GDT2 = tl.constexpr(-9.81 / 600.0 ** 2)


@triton.jit
def _spring(x, r, c, H, W, px, py, pz, ux, uy, uz, DI: tl.constexpr, DJ: tl.constexpr, k, rest):
    nr = r + DI
    nc = c + DJ
    ok = (nr >= 0) & (nr < H) & (nc >= 0) & (nc < W)
    nb = (nr * W + nc) * 3
    dx = tl.load(x + nb, mask=ok, other=0.0) - px
    dy = tl.load(x + nb + 1, mask=ok, other=0.0) - py
    dz = tl.load(x + nb + 2, mask=ok, other=0.0) - pz
    length = tl.sqrt(dx * dx + dy * dy + dz * dz)
    s = tl.where(ok, k * (length - rest) / tl.where(ok, length, 1.0), 0.0)
    return ux + s * dx, uy + s * dy, uz + s * dz


@triton.jit
def _verlet_step(x, x_prev, out, H, W, a, BH: tl.constexpr, BW: tl.constexpr):
    r = (tl.program_id(0) * BH + tl.arange(0, BH))[:, None]
    c = (tl.program_id(1) * BW + tl.arange(0, BW))[None, :]
    inside = (r < H) & (c < W)
    o = (r * W + c) * 3
    px = tl.load(x + o, mask=inside, other=0.0)
    py = tl.load(x + o + 1, mask=inside, other=0.0)
    pz = tl.load(x + o + 2, mask=inside, other=0.0)
    ux = tl.zeros([BH, BW], dtype=tl.float32)
    uy = tl.zeros([BH, BW], dtype=tl.float32)
    uz = tl.zeros([BH, BW], dtype=tl.float32)
    diag = a * 1.4142135623730951
    ux, uy, uz = _spring(x, r, c, H, W, px, py, pz, ux, uy, uz, -1, 0, K_STRUCT, a)
    ux, uy, uz = _spring(x, r, c, H, W, px, py, pz, ux, uy, uz, 1, 0, K_STRUCT, a)
    ux, uy, uz = _spring(x, r, c, H, W, px, py, pz, ux, uy, uz, 0, -1, K_STRUCT, a)
    ux, uy, uz = _spring(x, r, c, H, W, px, py, pz, ux, uy, uz, 0, 1, K_STRUCT, a)
    ux, uy, uz = _spring(x, r, c, H, W, px, py, pz, ux, uy, uz, -1, -1, K_SHEAR, diag)
    ux, uy, uz = _spring(x, r, c, H, W, px, py, pz, ux, uy, uz, -1, 1, K_SHEAR, diag)
    ux, uy, uz = _spring(x, r, c, H, W, px, py, pz, ux, uy, uz, 1, -1, K_SHEAR, diag)
    ux, uy, uz = _spring(x, r, c, H, W, px, py, pz, ux, uy, uz, 1, 1, K_SHEAR, diag)
    ux, uy, uz = _spring(x, r, c, H, W, px, py, pz, ux, uy, uz, -2, 0, K_BEND, 2 * a)
    ux, uy, uz = _spring(x, r, c, H, W, px, py, pz, ux, uy, uz, 2, 0, K_BEND, 2 * a)
    ux, uy, uz = _spring(x, r, c, H, W, px, py, pz, ux, uy, uz, 0, -2, K_BEND, 2 * a)
    ux, uy, uz = _spring(x, r, c, H, W, px, py, pz, ux, uy, uz, 0, 2, K_BEND, 2 * a)
    free = r > 0
    nx = px + tl.where(free, DAMP * (px - tl.load(x_prev + o, mask=inside, other=0.0)) + ux, 0.0)
    ny = py + tl.where(free, DAMP * (py - tl.load(x_prev + o + 1, mask=inside, other=0.0)) + uy + GDT2, 0.0)
    nz = pz + tl.where(free, DAMP * (pz - tl.load(x_prev + o + 2, mask=inside, other=0.0)) + uz, 0.0)
    tl.store(out + o, nx, mask=inside)
    tl.store(out + o + 1, ny, mask=inside)
    tl.store(out + o + 2, nz, mask=inside)


def run(x: torch.Tensor, x_prev: torch.Tensor) -> torch.Tensor:
    H, W, _ = x.shape
    out = torch.empty_like(x)
    BH, BW = 8, 64
    grid = (triton.cdiv(H, BH), triton.cdiv(W, BW))
    _verlet_step[grid](x, x_prev, out, H, W, 1.0 / (W - 1), BH=BH, BW=BW, num_warps=4)
    return out
