"""sep matched filter: T = sum(K * D * W) / sqrt(sum(K^2 * W)) over the kernel footprint, W = 1 / sigma^2."""
import torch
import triton
import triton.language as tl

BLOCK = 256


@triton.jit
def _accumulate_tap(img, wgt, kern, num, den, H, W, tap, dy, dx, BLOCK: tl.constexpr):
    # adds one kernel element's shifted contribution, as sep's convolve() does line by line
    y = tl.program_id(0)
    xs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    in_row = xs < W
    sy = y + dy
    sx = xs + dx
    src_ok = in_row & (sx >= 0) & (sx < W) & (sy >= 0) & (sy < H)
    k = tl.load(kern + tap)
    d = tl.load(img + sy * W + sx, mask=src_ok, other=0.0)
    w = tl.load(wgt + sy * W + sx, mask=src_ok, other=0.0)
    out = y * W + xs
    acc_n = tl.load(num + out, mask=in_row, other=0.0)
    acc_d = tl.load(den + out, mask=in_row, other=0.0)
    tl.store(num + out, acc_n + k * d * w, mask=in_row)
    tl.store(den + out, acc_d + k * k * w, mask=in_row)


@triton.jit
def _normalize(num, den, out, W, BLOCK: tl.constexpr):
    y = tl.program_id(0)
    xs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    in_row = xs < W
    n = tl.load(num + y * W + xs, mask=in_row, other=0.0)
    d = tl.load(den + y * W + xs, mask=in_row, other=0.0)
    t = tl.where(d > 0, n / tl.sqrt(tl.maximum(d, 1e-30)), 0.0)
    tl.store(out + y * W + xs, t, mask=in_row)


def run(image: torch.Tensor, weight: torch.Tensor, kernel: torch.Tensor) -> torch.Tensor:
    H, W = image.shape
    KH, KW = kernel.shape
    num = torch.zeros_like(image)
    den = torch.zeros_like(image)
    out = torch.empty_like(image)
    grid = (H, triton.cdiv(W, BLOCK))
    for j in range(KH):
        for i in range(KW):
            _accumulate_tap[grid](image, weight, kernel, num, den, H, W, j * KW + i,
                                  j - KH // 2, i - KW // 2, BLOCK=BLOCK, num_warps=4)
    _normalize[grid](num, den, out, W, BLOCK=BLOCK, num_warps=4)
    return out
