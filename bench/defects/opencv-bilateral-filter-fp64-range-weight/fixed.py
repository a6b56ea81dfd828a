"""Bilateral filter (OpenCV bilateralFilter, d = 9, reflect-101 border) of uint8 grayscale frames."""
import torch
import triton
import triton.language as tl

RADIUS = tl.constexpr(4)
SIGMA_COLOR = 75.0
SIGMA_SPACE = 75.0


@triton.jit
def _reflect101(i, n):
    i = tl.abs(i)
    return tl.where(i > n - 1, 2 * (n - 1) - i, i)


@triton.jit
def _range_weight(center, neighbour, color_coeff):
    d = neighbour - center
    return tl.exp(d * d * color_coeff)


@triton.jit
def _bilateral(src, dst, H, W, color_coeff, space_coeff, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    frame = tl.program_id(2)
    ys = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)
    xs = tl.program_id(0) * BLOCK_W + tl.arange(0, BLOCK_W)
    inside = (ys[:, None] < H) & (xs[None, :] < W)
    base = src + frame * H * W
    center = tl.load(base + ys[:, None] * W + xs[None, :], mask=inside, other=0).to(tl.float32)
    num = tl.zeros((BLOCK_H, BLOCK_W), dtype=tl.float32)
    den = tl.zeros((BLOCK_H, BLOCK_W), dtype=tl.float32)
    for dy in range(-RADIUS, RADIUS + 1):
        row = _reflect101(tl.minimum(ys, H - 1) + dy, H) * W
        for dx in tl.static_range(-RADIUS, RADIUS + 1):
            if dy * dy + dx * dx <= RADIUS * RADIUS:
                col = _reflect101(tl.minimum(xs, W - 1) + dx, W)
                q = tl.load(base + row[:, None] + col[None, :], mask=inside, other=0).to(tl.float32)
                w = tl.exp((dy * dy + dx * dx) * space_coeff) * _range_weight(center, q, color_coeff)
                num += w * q
                den += w
    out = tl.floor(num / den + 0.5)
    tl.store(dst + frame * H * W + ys[:, None] * W + xs[None, :], out.to(tl.uint8), mask=inside)


def run(frames: torch.Tensor) -> torch.Tensor:
    B, H, W = frames.shape
    out = torch.empty_like(frames)
    color_coeff = -0.5 / (SIGMA_COLOR * SIGMA_COLOR)
    space_coeff = -0.5 / (SIGMA_SPACE * SIGMA_SPACE)
    grid = (triton.cdiv(W, 64), triton.cdiv(H, 16), B)
    _bilateral[grid](frames, out, H, W, color_coeff, space_coeff, BLOCK_H=16, BLOCK_W=64, num_warps=8)
    return out
