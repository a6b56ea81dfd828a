"""Batched contrast jitter: each (image, pixel block) program reduces its image's grayscale mean, then blends its block."""
import torch
import triton
import triton.language as tl


@triton.jit
def _gray(r, g, b):
    return 0.2989 * r + 0.587 * g + 0.114 * b


@triton.jit
def adjust_contrast_kernel(img_ptr, factor_ptr, out_ptr, HW, BLOCK: tl.constexpr, RBLOCK: tl.constexpr):
    b = tl.program_id(0)
    blk = tl.program_id(1)
    base = img_ptr + b * 3 * HW
    # grayscale mean of the whole image
    acc = tl.zeros([RBLOCK], dtype=tl.float32)
    for start in range(0, HW, RBLOCK):
        o = start + tl.arange(0, RBLOCK)
        m = o < HW
        r = tl.load(base + o, mask=m, other=0.0)
        g = tl.load(base + HW + o, mask=m, other=0.0)
        bl = tl.load(base + 2 * HW + o, mask=m, other=0.0)
        acc += _gray(r, g, bl)
    mean = tl.sum(acc, axis=0) / HW
    f = tl.load(factor_ptr + b)
    offs = blk * BLOCK + tl.arange(0, BLOCK)
    m = offs < HW
    for c in range(3):
        x = tl.load(base + c * HW + offs, mask=m, other=0.0)
        y = tl.minimum(tl.maximum(f * x + (1.0 - f) * mean, 0.0), 1.0)
        tl.store(out_ptr + b * 3 * HW + c * HW + offs, y, mask=m)


class BatchContrastJitter:
    """ColorJitter(contrast=...) on a GPU batch, one factor per image."""

    BLOCK = 1024
    RBLOCK = 4096

    def __call__(self, img: torch.Tensor, factor: torch.Tensor) -> torch.Tensor:
        B, C, H, W = img.shape
        HW = H * W
        out = torch.empty_like(img)
        grid = (B, triton.cdiv(HW, self.BLOCK))
        adjust_contrast_kernel[grid](img, factor, out, HW, BLOCK=self.BLOCK, RBLOCK=self.RBLOCK)
        return out


_jitter = BatchContrastJitter()


def run(img: torch.Tensor, factor: torch.Tensor) -> torch.Tensor:
    return _jitter(img, factor)
