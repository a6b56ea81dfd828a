"""Zernike wavefront synthesis: a batch of phase maps as linear combinations of the pupil's Zernike modes."""
import torch
import triton
import triton.language as tl


@triton.jit
def _zernike_phase(coef, basis, out, B, J, P, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rows = tl.program_id(1) * BM + tl.arange(0, BM)
    pix = tl.program_id(0) * BN + tl.arange(0, BN)
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for j0 in range(0, J, BK):
        modes = j0 + tl.arange(0, BK)
        c = tl.load(coef + rows[:, None] * J + modes[None, :],
                    mask=(rows[:, None] < B) & (modes[None, :] < J), other=0.0)
        z = tl.load(basis + modes[:, None] * P + pix[None, :],
                    mask=(modes[:, None] < J) & (pix[None, :] < P), other=0.0)
        acc = tl.dot(c, z, acc)
    tl.store(out + rows[:, None] * P + pix[None, :], acc, mask=(rows[:, None] < B) & (pix[None, :] < P))


def run(coef: torch.Tensor, basis: torch.Tensor) -> torch.Tensor:
    B, J = coef.shape
    NP = basis.shape[1]
    P = NP * NP
    out = torch.empty((B, NP, NP), device=coef.device, dtype=torch.float32)
    BM, BN, BK = 128, 128, 16
    grid = (triton.cdiv(P, BN), triton.cdiv(B, BM))
    _zernike_phase[grid](coef, basis, out, B, J, P, BM=BM, BN=BN, BK=BK, num_warps=8)
    return out
