"""KRAKEN FIELD: normal-mode sum of the point-source pressure on a receiver depth x range grid."""
import torch
import triton
import triton.language as tl

_AI_CORES = 20  # cube + 2 vector cores each: a kernel with tl.dot runs one program per AI core


@triton.jit
def _mode_field(phi_r, phi_s, kr, ki, rng, p_re, p_im, NZ, M, NR,
                BZ: tl.constexpr, BM: tl.constexpr, BR: tl.constexpr):
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
        r = tl.load(rng + rs, mask=rmask, other=1.0)
        acc_re = tl.zeros([BZ, BR], dtype=tl.float32)
        acc_im = tl.zeros([BZ, BR], dtype=tl.float32)
        for m0 in range(0, M, BM):
            ms = m0 + tl.arange(0, BM)
            mmask = ms < M
            phi = tl.load(phi_r + zs[:, None] * M + ms[None, :], mask=zmask[:, None] & mmask[None, :], other=0.0)
            k = tl.load(kr + ms, mask=mmask, other=1.0)
            att = tl.load(ki + ms, mask=mmask, other=0.0)
            src = tl.load(phi_s + ms, mask=mmask, other=0.0)
            # range factors of this block of modes: phi_s / sqrt(kr) * exp(-ki r) * exp(i kr r)
            amp = src / tl.sqrt(k)
            g = amp[:, None] * tl.exp(-att[:, None] * r[None, :])
            ph = k[:, None] * r[None, :]
            g_re = g * tl.cos(ph)
            g_im = g * tl.sin(ph)
            acc_re = tl.dot(phi, g_re, acc_re)
            acc_im = tl.dot(phi, g_im, acc_im)
        # exp(i pi/4) / sqrt(8 pi r) = (1 + i) / sqrt(16 pi r)
        scale = 1.0 / tl.sqrt(16.0 * 3.141592653589793 * r)
        out = zs[:, None] * NR + rs[None, :]
        omask = zmask[:, None] & rmask[None, :]
        tl.store(p_re + out, (acc_re - acc_im) * scale[None, :], mask=omask)
        tl.store(p_im + out, (acc_re + acc_im) * scale[None, :], mask=omask)


def run(phi_r: torch.Tensor, phi_s: torch.Tensor, kr: torch.Tensor, ki: torch.Tensor,
        ranges: torch.Tensor) -> tuple:
    NZ, M = phi_r.shape
    NR = ranges.shape[0]
    p_re = torch.empty((NZ, NR), device=phi_r.device, dtype=phi_r.dtype)
    p_im = torch.empty((NZ, NR), device=phi_r.device, dtype=phi_r.dtype)
    BZ, BM, BR = 128, 64, 64
    n_tiles = triton.cdiv(NZ, BZ) * triton.cdiv(NR, BR)
    grid = (min(_AI_CORES, n_tiles),)
    _mode_field[grid](phi_r, phi_s, kr, ki, ranges, p_re, p_im, NZ, M, NR, BZ=BZ, BM=BM, BR=BR)
    return p_re, p_im
