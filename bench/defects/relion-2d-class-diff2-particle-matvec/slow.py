"""RELION 2-D classification coarse diff2: 0.5 * sum_p Minvsigma2 |Fimg - Fctf * Fref|^2 for all image/reference pairs."""
import torch
import triton
import triton.language as tl

BR = 64
BK = 32


@triton.jit
def _diff2_coarse(imgs, refs, ctf, inv_sigma2, diff2, n_img, n_ref, n_pix,
                  BR: tl.constexpr, BK: tl.constexpr):
    n = tl.program_id(0)                   # one shifted particle image per program
    r = tl.program_id(1) * BR + tl.arange(0, BR)
    r_ok = r < n_ref
    two_p = 2 * n_pix
    acc = tl.zeros([BR], dtype=tl.float32)
    xi2 = tl.zeros([BK], dtype=tl.float32)
    for k0 in range(0, two_p, BK):
        k = k0 + tl.arange(0, BK)          # interleaved re/im component
        k_ok = k < two_p
        pix = k // 2
        w = tl.load(inv_sigma2 + pix, mask=k_ok, other=0.0)
        x = tl.load(imgs + n * two_p + k, mask=k_ok, other=0.0)
        c = tl.load(ctf + n * n_pix + pix, mask=k_ok, other=0.0)
        a = tl.load(refs + r[:, None] * two_p + k[None, :], mask=r_ok[:, None] & k_ok[None, :], other=0.0)
        wx = w * x
        xi2 += wx * x
        acc += tl.sum((w * c * c)[None, :] * (a * a) + (-2.0 * c * wx)[None, :] * a, axis=1)
    out = 0.5 * (acc + tl.sum(xi2, axis=0))
    tl.store(diff2 + n * n_ref + r, out, mask=r_ok)


def run(imgs: torch.Tensor, refs: torch.Tensor, ctf: torch.Tensor, inv_sigma2: torch.Tensor) -> torch.Tensor:
    n_img, n_pix = ctf.shape
    n_ref = refs.shape[0]
    diff2 = torch.empty((n_img, n_ref), device=imgs.device, dtype=torch.float32)
    grid = (n_img, triton.cdiv(n_ref, BR))
    _diff2_coarse[grid](imgs, refs, ctf, inv_sigma2, diff2, n_img, n_ref, n_pix,
                        BR=BR, BK=BK, num_warps=4, num_stages=3)
    return diff2
