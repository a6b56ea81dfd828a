"""darktable sharpen: vertical Gaussian pass (sharpen_vblur) over the horizontally blurred L plane."""
import torch
import triton
import triton.language as tl

BLOCK = 256


@triton.jit
def _sharpen_vblur(src, dst, mat, height, width, RAD: tl.constexpr, BLOCK: tl.constexpr):
    # one program per row y and block of BLOCK contiguous columns
    x = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    y = tl.program_id(1)
    ok = x < width
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for k in tl.static_range(2 * RAD + 1):
        yy = tl.minimum(tl.maximum(y + (k - RAD), 0), height - 1)     # clamp to edge
        acc += tl.load(mat + k) * tl.load(src + yy * width + x, mask=ok, other=0.0)
    tl.store(dst + y * width + x, acc, mask=ok)


def run(lum: torch.Tensor, mat: torch.Tensor) -> torch.Tensor:
    height, width = lum.shape
    rad = (mat.shape[0] - 1) // 2
    out = torch.empty_like(lum)
    grid = (triton.cdiv(width, BLOCK), height)
    _sharpen_vblur[grid](lum, out, mat, height, width, RAD=rad, BLOCK=BLOCK, num_warps=4)
    return out
