"""Pixel shuffle as a flat copy over the output, FlagGems-pointwise style: each element decodes its own coordinates."""
import torch
import triton
import triton.language as tl


@triton.jit
def pixel_shuffle_kernel(x_ptr, out_ptr, n_out, C, H, W, r, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_out
    OW = W * r
    OH = H * r
    ow = offs % OW
    oh = (offs // OW) % OH
    c = (offs // (OW * OH)) % C
    n = offs // (OW * OH * C)
    h = oh // r
    i = oh % r
    w = ow // r
    j = ow % r
    src = ((n * C * r * r + c * r * r + i * r + j) * H + h) * W + w
    tl.store(out_ptr + offs, tl.load(x_ptr + src, mask=mask), mask=mask)


def run(x: torch.Tensor, r: int) -> torch.Tensor:
    N, CRR, H, W = x.shape
    C = CRR // (r * r)
    out = torch.empty((N, C, H * r, W * r), dtype=x.dtype, device=x.device)
    n_out = out.numel()
    pixel_shuffle_kernel[(triton.cdiv(n_out, 1024),)](x, out, n_out, C, H, W, r, BLOCK=1024)
    return out
