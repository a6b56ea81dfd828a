"""Integral image: row prefix sums, then column prefix sums walked down each column strip."""
import torch
import triton
import triton.language as tl


@triton.jit
def row_prefix_kernel(img_ptr, out_ptr, W, BLOCK_W: tl.constexpr):
    row = tl.program_id(0)
    x = tl.arange(0, BLOCK_W)
    m = x < W
    base = row.to(tl.int64) * W
    v = tl.load(img_ptr + base + x, mask=m, other=0.0)
    tl.store(out_ptr + base + x, tl.cumsum(v, axis=0), mask=m)


@triton.jit
def col_prefix_kernel(src_ptr, out_ptr, H, W, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    strip = tl.program_id(0)
    n = tl.program_id(1)
    x = strip * BLOCK_W + tl.arange(0, BLOCK_W)
    xm = x < W
    base = n.to(tl.int64) * H * W
    carry = tl.zeros((BLOCK_W,), dtype=tl.float32)
    for y0 in range(0, H, BLOCK_H):
        y = y0 + tl.arange(0, BLOCK_H)
        m = (y < H)[:, None] & xm[None, :]
        offs = base + y[:, None] * W + x[None, :]
        tile = tl.load(src_ptr + offs, mask=m, other=0.0)
        tl.store(out_ptr + offs, tl.cumsum(tile, axis=0) + carry[None, :], mask=m)
        carry += tl.sum(tile, axis=0)


def run(img: torch.Tensor) -> torch.Tensor:
    N, H, W = img.shape
    rows = torch.empty_like(img)
    out = torch.empty_like(img)
    row_prefix_kernel[(N * H,)](img, rows, W, BLOCK_W=triton.next_power_of_2(W), num_warps=8)
    cfg = {"BLOCK_H": 32, "BLOCK_W": 64}
    grid = (triton.cdiv(W, cfg["BLOCK_W"]), N)
    col_prefix_kernel[grid](rows, out, H, W, **cfg, num_warps=4)
    return out
