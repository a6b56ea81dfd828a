"""RELION 2-D classification coarse diff2: 0.5 * sum_p Minvsigma2 |Fimg - Fctf * Fref|^2 for all image/reference pairs."""
import torch
import triton
import triton.language as tl

BN = 64
BR = 64
BK = 32


@triton.jit
def _diff2_coarse(imgs, refs, ctf, inv_sigma2, diff2, n_img, n_ref, n_pix,
                  BN: tl.constexpr, BR: tl.constexpr, BK: tl.constexpr):
    n = tl.program_id(0) * BN + tl.arange(0, BN)
    r = tl.program_id(1) * BR + tl.arange(0, BR)
    n_ok = n < n_img
    r_ok = r < n_ref
    two_p = 2 * n_pix
    acc = tl.zeros([BN, BR], dtype=tl.float32)
    xi2 = tl.zeros([BN], dtype=tl.float32)
    for k0 in range(0, two_p, BK):
        k = k0 + tl.arange(0, BK)          # interleaved re/im component
        k_ok = k < two_p
        pix = k // 2
        w = tl.load(inv_sigma2 + pix, mask=k_ok, other=0.0)
        x = tl.load(imgs + n[:, None] * two_p + k[None, :], mask=n_ok[:, None] & k_ok[None, :], other=0.0)
        c = tl.load(ctf + n[:, None] * n_pix + pix[None, :], mask=n_ok[:, None] & k_ok[None, :], other=0.0)
        a = tl.load(refs + r[:, None] * two_p + k[None, :], mask=r_ok[:, None] & k_ok[None, :], other=0.0)
        wx = w[None, :] * x
        xi2 += tl.sum(wx * x, axis=1)
        acc = tl.dot(w[None, :] * c * c, tl.trans(a * a), acc, input_precision="tf32x3")
        acc = tl.dot(-2.0 * c * wx, tl.trans(a), acc, input_precision="tf32x3")
    out = 0.5 * (acc + xi2[:, None])
    tl.store(diff2 + n[:, None] * n_ref + r[None, :], out, mask=n_ok[:, None] & r_ok[None, :])


def run(imgs: torch.Tensor, refs: torch.Tensor, ctf: torch.Tensor, inv_sigma2: torch.Tensor) -> torch.Tensor:
    n_img, n_pix = ctf.shape
    n_ref = refs.shape[0]
    diff2 = torch.empty((n_img, n_ref), device=imgs.device, dtype=torch.float32)
    grid = (triton.cdiv(n_img, BN), triton.cdiv(n_ref, BR))
    _diff2_coarse[grid](imgs, refs, ctf, inv_sigma2, diff2, n_img, n_ref, n_pix,
                        BN=BN, BR=BR, BK=BK, num_warps=4, num_stages=3)
    return diff2
