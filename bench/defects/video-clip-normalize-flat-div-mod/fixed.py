"""Video clip normalize + THWC -> CTHW: one program per (frame row, block of pixels), channels unrolled."""
import torch
import triton
import triton.language as tl


@triton.jit
def _normalize(v, mean, inv_std):
    return (v.to(tl.float32) * (1.0 / 255.0) - mean) * inv_std


@triton.jit
def clip_normalize_kernel(in_ptr, mean_ptr, std_ptr, out_ptr, T, H, W, C: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    blk = tl.program_id(1)
    h = row % H
    bt = row // H
    t = bt % T
    b = bt // T
    w = blk * BLOCK + tl.arange(0, BLOCK)
    m = w < W
    src = in_ptr + row.to(tl.int64) * W * C
    plane = T * H * W
    dst = out_ptr + b.to(tl.int64) * C * plane + t * H * W + h * W
    for c in tl.static_range(C):
        mean = tl.load(mean_ptr + c)
        inv_std = 1.0 / tl.load(std_ptr + c)
        v = tl.load(src + w * C + c, mask=m, other=0)
        tl.store(dst + c * plane + w, _normalize(v, mean, inv_std), mask=m)


def run(frames: torch.Tensor, mean: torch.Tensor, std: torch.Tensor) -> torch.Tensor:
    B, T, H, W, C = frames.shape
    out = torch.empty((B, C, T, H, W), device=frames.device, dtype=torch.float32)
    BLOCK = min(512, triton.next_power_of_2(W))
    grid = (B * T * H, triton.cdiv(W, BLOCK))
    clip_normalize_kernel[grid](frames, mean, std, out, T, H, W, C=C, BLOCK=BLOCK, num_warps=4)
    return out
