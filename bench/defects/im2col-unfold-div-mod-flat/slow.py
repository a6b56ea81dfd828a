"""im2col for a convolution lowered to GEMM: a flat copy over the column matrix; every element decodes
(n, c, kh, kw, oh, ow) from its flat index."""
import torch
import triton
import triton.language as tl


@triton.jit
def im2col_kernel(x_ptr, out_ptr, total, C, H, W, OH, OW, KH, KW, stride, pad, dil, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    L = OH * OW
    K = C * KH * KW
    # out is [N, C*KH*KW, OH*OW]
    l = offs % L
    k = (offs // L) % K
    n = offs // (L * K)
    oh = l // OW
    ow = l % OW
    c = k // (KH * KW)
    kh = (k // KW) % KH
    kw = k % KW
    ih = oh * stride - pad + kh * dil
    iw = ow * stride - pad + kw * dil
    inside = mask & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)
    v = tl.load(x_ptr + ((n * C + c) * H + ih) * W + iw, mask=inside, other=0.0)
    tl.store(out_ptr + offs, v, mask=mask)


def _out_size(size: int, kernel: int, stride: int, pad: int, dil: int) -> int:
    return (size + 2 * pad - dil * (kernel - 1) - 1) // stride + 1


def run(x: torch.Tensor, kernel: int, stride: int, pad: int, dil: int) -> torch.Tensor:
    N, C, H, W = x.shape
    OH = _out_size(H, kernel, stride, pad, dil)
    OW = _out_size(W, kernel, stride, pad, dil)
    out = torch.empty((N, C * kernel * kernel, OH * OW), dtype=x.dtype, device=x.device)
    total = out.numel()
    BLOCK = 1024
    im2col_kernel[(triton.cdiv(total, BLOCK),)](x, out, total, C, H, W, OH, OW, kernel, kernel,
                                                stride, pad, dil, BLOCK=BLOCK)
    return out
