"""Fused D3Q19 BGK stream-collide step (lettuce StandardStreaming + BGKCollision) on a periodic box."""
import torch
import triton
import triton.language as tl

BLOCK = 128


@triton.jit
def _wrap(i, n):
    i = tl.where(i < 0, i + n, i)
    return tl.where(i >= n, i - n, i)


@triton.jit
def _stream_collide(f_in, f_out, e, w, inv_tau, NX, NY, NZ, s_q, s_x, s_y,
                    Q: tl.constexpr, QP: tl.constexpr, BLOCK: tl.constexpr):
    q = tl.arange(0, QP)
    q_ok = q < Q
    ex = tl.load(e + 3 * q + 0, mask=q_ok, other=0)
    ey = tl.load(e + 3 * q + 1, mask=q_ok, other=0)
    ez = tl.load(e + 3 * q + 2, mask=q_ok, other=0)
    wq = tl.load(w + q, mask=q_ok, other=0.0)
    # one program per run of BLOCK cells along z (the contiguous axis) at fixed (x, y)
    x = tl.program_id(0)
    y = tl.program_id(1)
    z = (tl.program_id(2) * BLOCK + tl.arange(0, BLOCK))[:, None]
    cell_ok = z < NZ
    # tiles are [cells, directions]; pull: population q arrives from cell - e_q (periodic)
    xs = _wrap(x - ex[None, :], NX)
    ys = _wrap(y - ey[None, :], NY)
    zs = _wrap(z - ez[None, :], NZ)
    ok = cell_ok & q_ok[None, :]
    fq = tl.load(f_in + q[None, :] * s_q + xs * s_x + ys * s_y + zs, mask=ok, other=0.0)
    # moments
    cx = ex.to(tl.float32)[None, :]
    cy = ey.to(tl.float32)[None, :]
    cz = ez.to(tl.float32)[None, :]
    rho = tl.sum(fq, axis=1)
    inv_rho = 1.0 / rho
    ux = tl.sum(fq * cx, axis=1) * inv_rho
    uy = tl.sum(fq * cy, axis=1) * inv_rho
    uz = tl.sum(fq * cz, axis=1) * inv_rho
    # BGK relaxation to the second-order equilibrium
    eu = ux[:, None] * cx + uy[:, None] * cy + uz[:, None] * cz
    uu = (ux * ux + uy * uy + uz * uz)[:, None]
    feq = wq[None, :] * rho[:, None] * (1.0 + 3.0 * eu + 4.5 * eu * eu - 1.5 * uu)
    f_new = fq - inv_tau * (fq - feq)
    tl.store(f_out + q[None, :] * s_q + x * s_x + y * s_y + z, f_new, mask=ok)


def run(f: torch.Tensor, e: torch.Tensor, w: torch.Tensor, tau: float) -> torch.Tensor:
    Q, NX, NY, NZ = f.shape
    out = torch.empty_like(f)
    block = min(BLOCK, triton.next_power_of_2(NZ))
    grid = (NX, NY, triton.cdiv(NZ, block))
    _stream_collide[grid](f, out, e, w, 1.0 / tau, NX, NY, NZ, f.stride(0), f.stride(1), f.stride(2),
                          Q=Q, QP=triton.next_power_of_2(Q), BLOCK=block, num_warps=4)
    return out
