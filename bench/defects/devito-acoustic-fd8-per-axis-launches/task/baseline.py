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
def _ring(u, ix, iz, k, NX, NZ):
    return (_at(u, ix - k, iz, NX, NZ) + _at(u, ix + k, iz, NX, NZ)
            + _at(u, ix, iz - k, NX, NZ) + _at(u, ix, iz + k, NX, NZ))


@triton.jit
def _acoustic_step(u_prev, u, m, u_next, NX, NZ, dt2_h2, BX: tl.constexpr, BZ: tl.constexpr):
    ix = tl.program_id(0) * BX + tl.arange(0, BX)[:, None]
    iz = tl.program_id(1) * BZ + tl.arange(0, BZ)[None, :]
    inside = (ix < NX) & (iz < NZ)
    offs = ix * NZ + iz
    uc = tl.load(u + offs, mask=inside, other=0.0)
    lap = 2.0 * C0 * uc
    lap += C1 * _ring(u, ix, iz, 1, NX, NZ)
    lap += C2 * _ring(u, ix, iz, 2, NX, NZ)
    lap += C3 * _ring(u, ix, iz, 3, NX, NZ)
    lap += C4 * _ring(u, ix, iz, 4, NX, NZ)
    up = tl.load(u_prev + offs, mask=inside, other=0.0)
    mm = tl.load(m + offs, mask=inside, other=1.0)
    tl.store(u_next + offs, 2.0 * uc - up + dt2_h2 * lap / mm, mask=inside)


def run(u_prev: torch.Tensor, u: torch.Tensor, m: torch.Tensor, dt: float, h: float) -> torch.Tensor:
    NX, NZ = u.shape
    u_next = torch.empty_like(u)
    BX, BZ = 8, 128
    grid = (triton.cdiv(NX, BX), triton.cdiv(NZ, BZ))
    _acoustic_step[grid](u_prev, u, m, u_next, NX, NZ, dt * dt / (h * h), BX=BX, BZ=BZ, num_warps=4)
    return u_next
