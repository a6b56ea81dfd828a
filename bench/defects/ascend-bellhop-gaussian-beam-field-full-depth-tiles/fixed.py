"""BELLHOP geometric Gaussian-beam influence: coherent beam sum onto the receiver depth x range grid."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _gaussian_beam_field(zr, zc, sig, amp, phase, p_re, p_im, NB, NZ, NR, window,
                         BZ: tl.constexpr, BR: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_rt = tl.cdiv(NR, BR)
    n_tiles = tl.cdiv(NZ, BZ) * n_rt
    for tile in range(pid, n_tiles, nprog):
        tz = tile // n_rt
        tr = tile - tz * n_rt
        zs = tz * BZ + tl.arange(0, BZ)
        rs = tr * BR + tl.arange(0, BR)
        zmask = zs < NZ
        rmask = rs < NR
        z = tl.load(zr + zs, mask=zmask, other=0.0)
        z_top = tl.load(zr + tz * BZ)  # receiver depths ascend
        z_bot = tl.load(zr + tl.minimum(tz * BZ + BZ, NZ) - 1)
        acc_re = tl.zeros([BZ, BR], dtype=tl.float32)
        acc_im = tl.zeros([BZ, BR], dtype=tl.float32)
        for b in range(0, NB):
            row = b * NR + rs
            zb = tl.load(zc + row, mask=rmask, other=-1.0e15)  # padded lanes: far outside every window
            sb = tl.load(sig + row, mask=rmask, other=1.0)
            # skip the beam when its window zc +- window * sig misses the tile's depths at every range
            near = (zb + window * sb >= z_top) & (zb - window * sb <= z_bot)
            if tl.max(near.to(tl.float32), axis=0) > 0.0:
                ab = tl.load(amp + row, mask=rmask, other=0.0)
                ph = tl.load(phase + row, mask=rmask, other=0.0)
                c_re = ab * tl.cos(ph)
                c_im = ab * tl.sin(ph)
                n = (z[:, None] - zb[None, :]) / sb[None, :]
                gauss = tl.where(tl.abs(n) < window, tl.exp(-0.5 * n * n), 0.0)
                acc_re += gauss * c_re[None, :]
                acc_im += gauss * c_im[None, :]
        out = zs[:, None] * NR + rs[None, :]
        omask = zmask[:, None] & rmask[None, :]
        tl.store(p_re + out, acc_re, mask=omask)
        tl.store(p_im + out, acc_im, mask=omask)


def run(zr: torch.Tensor, zc: torch.Tensor, sig: torch.Tensor, amp: torch.Tensor, phase: torch.Tensor,
        window: float) -> tuple:
    NB, NR = zc.shape
    NZ = zr.shape[0]
    p_re = torch.empty((NZ, NR), device=zr.device, dtype=zr.dtype)
    p_im = torch.empty((NZ, NR), device=zr.device, dtype=zr.dtype)
    BZ, BR = 32, 64
    n_tiles = triton.cdiv(NZ, BZ) * triton.cdiv(NR, BR)
    grid = (min(_VECTOR_CORES, n_tiles),)
    _gaussian_beam_field[grid](zr, zc, sig, amp, phase, p_re, p_im, NB, NZ, NR, window, BZ=BZ, BR=BR)
    return p_re, p_im
