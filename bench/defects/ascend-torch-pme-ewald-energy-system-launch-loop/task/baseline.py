"""Ewald reciprocal-space energy per structure of a batch: structure factors over a half-space k-grid."""
import math

import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
KE_4PI = tl.constexpr(4.0 * math.pi * 14.399645)  # Coulomb constant (eV A) x 4 pi


@triton.jit
def _ewald_kspace(pos, charges, ptr, recip, volume, miller, energy, n_atoms, sys_begin, sys_end, K, alpha,
                  BK: tl.constexpr, BA: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    inv_4a2 = 0.25 / (alpha * alpha)
    for b in range(sys_begin + pid, sys_end, nprog):
        start = tl.load(ptr + b)
        end = tl.load(ptr + b + 1)
        b1x = tl.load(recip + b * 9 + 0)
        b1y = tl.load(recip + b * 9 + 1)
        b1z = tl.load(recip + b * 9 + 2)
        b2x = tl.load(recip + b * 9 + 3)
        b2y = tl.load(recip + b * 9 + 4)
        b2z = tl.load(recip + b * 9 + 5)
        b3x = tl.load(recip + b * 9 + 6)
        b3y = tl.load(recip + b * 9 + 7)
        b3z = tl.load(recip + b * 9 + 8)
        acc = tl.zeros([BK], dtype=tl.float32)
        for k0 in range(0, K, BK):
            ks = k0 + tl.arange(0, BK)
            kmask = ks < K
            n1 = tl.load(miller + ks, mask=kmask, other=0).to(tl.float32)
            n2 = tl.load(miller + K + ks, mask=kmask, other=0).to(tl.float32)
            n3 = tl.load(miller + 2 * K + ks, mask=kmask, other=0).to(tl.float32)
            kx = n1 * b1x + n2 * b2x + n3 * b3x
            ky = n1 * b1y + n2 * b2y + n3 * b3y
            kz = n1 * b1z + n2 * b2z + n3 * b3z
            s_re = tl.zeros([BK], dtype=tl.float32)
            s_im = tl.zeros([BK], dtype=tl.float32)
            for a0 in range(start, end, BA):
                atoms = a0 + tl.arange(0, BA)
                amask = atoms < end
                x = tl.load(pos + atoms, mask=amask, other=0.0)
                y = tl.load(pos + n_atoms + atoms, mask=amask, other=0.0)
                z = tl.load(pos + 2 * n_atoms + atoms, mask=amask, other=0.0)
                q = tl.load(charges + atoms, mask=amask, other=0.0)
                phase = kx[:, None] * x[None, :] + ky[:, None] * y[None, :] + kz[:, None] * z[None, :]
                s_re += tl.sum(tl.cos(phase) * q[None, :], axis=1)
                s_im += tl.sum(tl.sin(phase) * q[None, :], axis=1)
            k2 = kx * kx + ky * ky + kz * kz  # 0 only on the padding lanes (n = 0)
            g = tl.where(k2 > 0.0, tl.exp(-k2 * inv_4a2) / tl.maximum(k2, 1e-30), 0.0)
            acc += g * (s_re * s_re + s_im * s_im)
        vol = tl.load(volume + b)
        tl.store(energy + b, tl.sum(acc, axis=0) * KE_4PI / vol)


def run(positions: torch.Tensor, charges: torch.Tensor, ptr: torch.Tensor, recip: torch.Tensor,
        volume: torch.Tensor, miller: torch.Tensor, alpha: float) -> torch.Tensor:
    B = ptr.shape[0] - 1
    N = positions.shape[1]
    K = miller.shape[1]
    energy = torch.empty(B, device=positions.device, dtype=positions.dtype)
    grid = (max(1, min(_VECTOR_CORES, B)),)
    _ewald_kspace[grid](positions, charges, ptr, recip, volume, miller, energy, N, 0, B, K, alpha,
                        BK=64, BA=64)
    return energy
