"""im2col for a convolution lowered to GEMM: one program per (column-matrix row, band of output rows);
the row's (n, c, kh, kw) is decoded once and the tile is indexed by (oh, ow) directly."""
import torch
import triton
import triton.language as tl


@triton.jit
def im2col_kernel(x_ptr, out_ptr, C, H, W, OH, OW, KH, KW, stride, pad, dil,
                  BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    row = tl.program_id(0)          # one row (n, c, kh, kw) of out [N, C*KH*KW, OH*OW]
    K = C * KH * KW
    n = row // K
    k = row % K
    c = k // (KH * KW)
    kh = (k // KW) % KH
    kw = k % KW
    oh = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)[:, None]
    ow = tl.arange(0, BLOCK_W)[None, :]
    ih = oh * stride - pad + kh * dil
    iw = ow * stride - pad + kw * dil
    out_mask = (oh < OH) & (ow < OW)
    inside = out_mask & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)
    v = tl.load(x_ptr + ((n * C + c) * H + ih) * W + iw, mask=inside, other=0.0)
    tl.store(out_ptr + row * (OH * OW) + oh * OW + ow, v, mask=out_mask)


def _out_size(size: int, kernel: int, stride: int, pad: int, dil: int) -> int:
    return (size + 2 * pad - dil * (kernel - 1) - 1) // stride + 1


def run(x: torch.Tensor, kernel: int, stride: int, pad: int, dil: int) -> torch.Tensor:
    N, C, H, W = x.shape
    OH = _out_size(H, kernel, stride, pad, dil)
    OW = _out_size(W, kernel, stride, pad, dil)
    out = torch.empty((N, C * kernel * kernel, OH * OW), dtype=x.dtype, device=x.device)
    BLOCK_H, BLOCK_W = 8, triton.next_power_of_2(OW)
    grid = (N * C * kernel * kernel, triton.cdiv(OH, BLOCK_H))
    im2col_kernel[grid](x, out, C, H, W, OH, OW, kernel, kernel, stride, pad, dil,
                        BLOCK_H=BLOCK_H, BLOCK_W=BLOCK_W)
    return out
