"""Zernike wavefront synthesis: a batch of phase maps as linear combinations of the pupil's Zernike modes."""
import torch
import triton
import triton.language as tl


@triton.jit
def _zernike_phase(coef, basis, out, J, P, BJ: tl.constexpr, BN: tl.constexpr):
    b = tl.program_id(0)
    pix = tl.program_id(1) * BN + tl.arange(0, BN)
    acc = tl.zeros([BN], dtype=tl.float32)
    for j0 in range(0, J, BJ):
        modes = j0 + tl.arange(0, BJ)
        c = tl.load(coef + b * J + modes, mask=modes < J, other=0.0)
        z = tl.load(basis + modes[:, None] * P + pix[None, :],
                    mask=(modes[:, None] < J) & (pix[None, :] < P), other=0.0)
        acc += tl.sum(c[:, None] * z, axis=0)
    tl.store(out + b * P + pix, acc, mask=pix < P)


def run(coef: torch.Tensor, basis: torch.Tensor) -> torch.Tensor:
    B, J = coef.shape
    NP = basis.shape[1]
    P = NP * NP
    out = torch.empty((B, NP, NP), device=coef.device, dtype=torch.float32)
    BJ, BN = 16, 256
    grid = (B, triton.cdiv(P, BN))
    _zernike_phase[grid](coef, basis, out, J, P, BJ=BJ, BN=BN, num_warps=4)
    return out
