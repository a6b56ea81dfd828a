"""Devito acoustic forward step: u_next = 2u - u_prev + dt^2/m * laplace(u), 8th-order stencil."""
import torch
import triton
import triton.language as tl

C0 = tl.constexpr(-205.0 / 72.0)
C1 = tl.constexpr(8.0 / 5.0)
C2 = tl.constexpr(-1.0 / 5.0)
C3 = tl.constexpr(8.0 / 315.0)
C4 = tl.constexpr(-1.0 / 560.0)


@triton.jit
def _at(u, ix, iz, NX, NZ):
    inside = (ix >= 0) & (ix < NX) & (iz >= 0) & (iz < NZ)
    return tl.load(u + ix * NZ + iz, mask=inside, other=0.0)


@triton.jit
def _pair(u, ix, iz, k, SX: tl.constexpr, SZ: tl.constexpr, NX, NZ):
    return _at(u, ix - k * SX, iz - k * SZ, NX, NZ) + _at(u, ix + k * SX, iz + k * SZ, NX, NZ)


@triton.jit
def _second_derivative(u, out, NX, NZ, inv_h2, SX: tl.constexpr, SZ: tl.constexpr,
                       BX: tl.constexpr, BZ: tl.constexpr):
    ix = tl.program_id(0) * BX + tl.arange(0, BX)[:, None]
    iz = tl.program_id(1) * BZ + tl.arange(0, BZ)[None, :]
    inside = (ix < NX) & (iz < NZ)
    d2 = C0 * tl.load(u + ix * NZ + iz, mask=inside, other=0.0)
    d2 += C1 * _pair(u, ix, iz, 1, SX, SZ, NX, NZ)
    d2 += C2 * _pair(u, ix, iz, 2, SX, SZ, NX, NZ)
    d2 += C3 * _pair(u, ix, iz, 3, SX, SZ, NX, NZ)
    d2 += C4 * _pair(u, ix, iz, 4, SX, SZ, NX, NZ)
    tl.store(out + ix * NZ + iz, d2 * inv_h2, mask=inside)


@triton.jit
def _leapfrog(u_prev, u, m, uxx, uzz, u_next, NX, NZ, dt2, BX: tl.constexpr, BZ: tl.constexpr):
    ix = tl.program_id(0) * BX + tl.arange(0, BX)[:, None]
    iz = tl.program_id(1) * BZ + tl.arange(0, BZ)[None, :]
    inside = (ix < NX) & (iz < NZ)
    offs = ix * NZ + iz
    uc = tl.load(u + offs, mask=inside, other=0.0)
    up = tl.load(u_prev + offs, mask=inside, other=0.0)
    mm = tl.load(m + offs, mask=inside, other=1.0)
    lap = tl.load(uxx + offs, mask=inside, other=0.0) + tl.load(uzz + offs, mask=inside, other=0.0)
    tl.store(u_next + offs, 2.0 * uc - up + dt2 * lap / mm, mask=inside)


def run(u_prev: torch.Tensor, u: torch.Tensor, m: torch.Tensor, dt: float, h: float) -> torch.Tensor:
    NX, NZ = u.shape
    uxx = torch.empty_like(u)
    uzz = torch.empty_like(u)
    u_next = torch.empty_like(u)
    BX, BZ = 8, 128
    grid = (triton.cdiv(NX, BX), triton.cdiv(NZ, BZ))
    inv_h2 = 1.0 / (h * h)
    _second_derivative[grid](u, uxx, NX, NZ, inv_h2, SX=1, SZ=0, BX=BX, BZ=BZ, num_warps=4)
    _second_derivative[grid](u, uzz, NX, NZ, inv_h2, SX=0, SZ=1, BX=BX, BZ=BZ, num_warps=4)
    _leapfrog[grid](u_prev, u, m, uxx, uzz, u_next, NX, NZ, dt * dt, BX=BX, BZ=BZ, num_warps=4)
    return u_next
