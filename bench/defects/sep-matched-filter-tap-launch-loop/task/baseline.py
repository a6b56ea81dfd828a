"""sep matched filter: T = sum(K * D * W) / sqrt(sum(K^2 * W)) over the kernel footprint, W = 1 / sigma^2."""
import torch
import triton
import triton.language as tl

BLOCK = 256


@triton.jit
def _matched_filter(img, wgt, kern, out, H, W, KH, KW, BLOCK: tl.constexpr):
    y = tl.program_id(0)
    xs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    in_row = xs < W
    acc_n = tl.zeros([BLOCK], dtype=tl.float32)
    acc_d = tl.zeros([BLOCK], dtype=tl.float32)
    for j in range(KH):
        sy = y + j - KH // 2
        for i in range(KW):
            sx = xs + i - KW // 2
            src_ok = in_row & (sx >= 0) & (sx < W) & (sy >= 0) & (sy < H)
            k = tl.load(kern + j * KW + i)
            d = tl.load(img + sy * W + sx, mask=src_ok, other=0.0)
            w = tl.load(wgt + sy * W + sx, mask=src_ok, other=0.0)
            acc_n = acc_n + k * d * w
            acc_d = acc_d + k * k * w
    t = tl.where(acc_d > 0, acc_n / tl.sqrt(tl.maximum(acc_d, 1e-30)), 0.0)
    tl.store(out + y * W + xs, t, mask=in_row)


def run(image: torch.Tensor, weight: torch.Tensor, kernel: torch.Tensor) -> torch.Tensor:
    H, W = image.shape
    KH, KW = kernel.shape
    out = torch.empty_like(image)
    grid = (H, triton.cdiv(W, BLOCK))
    _matched_filter[grid](image, weight, kernel, out, H, W, KH, KW, BLOCK=BLOCK, num_warps=4)
    return out
