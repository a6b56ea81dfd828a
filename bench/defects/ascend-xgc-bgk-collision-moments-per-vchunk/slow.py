"""BGK collision step on per-vertex velocity grids: moments, shifted Maxwellian, exact relaxation."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BN = 16     # vertices per block
BV = 128    # velocity points per chunk


@triton.jit
def _bgk_collide(f, vol, vpar, vperp2, out, N, NV, nu0_dt,
                 BN: tl.constexpr, BV: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    two_pi = 6.283185307179586
    n_chunks = tl.cdiv(NV, BV)
    # one work item per (vertex block, velocity chunk), spread over the vector cores
    for item in range(pid, tl.cdiv(N, BN) * n_chunks, nprog):
        blk = item // n_chunks
        c0 = (item % n_chunks) * BV
        rows = blk * BN + tl.arange(0, BN)
        rmask = rows < N
        s0 = tl.zeros([BN], dtype=tl.float32)
        s1 = tl.zeros([BN], dtype=tl.float32)
        s2 = tl.zeros([BN], dtype=tl.float32)
        for c in range(0, NV, BV):
            cols = c + tl.arange(0, BV)
            cmask = cols < NV
            mask = rmask[:, None] & cmask[None, :]
            x = tl.load(f + rows[:, None] * NV + cols[None, :], mask=mask, other=0.0)
            w = tl.load(vol + cols, mask=cmask, other=0.0)
            vp = tl.load(vpar + cols, mask=cmask, other=0.0)
            vq = tl.load(vperp2 + cols, mask=cmask, other=0.0)
            wx = x * w[None, :]
            s0 += tl.sum(wx, axis=1)
            s1 += tl.sum(wx * vp[None, :], axis=1)
            s2 += tl.sum(wx * (vp * vp + vq)[None, :], axis=1)
        dens = tl.maximum(s0, 1e-30)   # rows past N: keep the masked lanes finite
        u = s1 / dens
        t = tl.maximum((s2 / dens - u * u) / 3.0, 1e-30)
        norm = dens / (two_pi * t * tl.sqrt(two_pi * t))
        decay = tl.exp(-nu0_dt * dens / (t * tl.sqrt(t)))
        inv2t = 0.5 / t
        cols = c0 + tl.arange(0, BV)
        cmask = cols < NV
        mask = rmask[:, None] & cmask[None, :]
        x = tl.load(f + rows[:, None] * NV + cols[None, :], mask=mask, other=0.0)
        vp = tl.load(vpar + cols, mask=cmask, other=0.0)
        vq = tl.load(vperp2 + cols, mask=cmask, other=0.0)
        dv = vp[None, :] - u[:, None]
        fm = norm[:, None] * tl.exp(-(dv * dv + vq[None, :]) * inv2t[:, None])
        y = fm + (x - fm) * decay[:, None]
        tl.store(out + rows[:, None] * NV + cols[None, :], y, mask=mask)


def run(f: torch.Tensor, vol: torch.Tensor, vpar: torch.Tensor, vperp2: torch.Tensor,
        nu0_dt: float) -> torch.Tensor:
    N, NV = f.shape
    out = torch.empty_like(f)
    grid = (min(_VECTOR_CORES, triton.cdiv(N, BN) * triton.cdiv(NV, BV)),)
    _bgk_collide[grid](f, vol, vpar, vperp2, out, N, NV, nu0_dt, BN=BN, BV=BV)
    return out
