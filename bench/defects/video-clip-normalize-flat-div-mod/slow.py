"""Video clip normalize + THWC -> CTHW: one program per block of output elements."""
import torch
import triton
import triton.language as tl


@triton.jit
def _normalize(v, mean, inv_std):
    return (v.to(tl.float32) * (1.0 / 255.0) - mean) * inv_std


@triton.jit
def clip_normalize_kernel(in_ptr, mean_ptr, std_ptr, out_ptr, total, T, H, W, C, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < total
    w = offs % W
    h = (offs // W) % H
    t = (offs // (W * H)) % T
    c = (offs // (W * H * T)) % C
    b = offs // (W * H * T * C)
    mean = tl.load(mean_ptr + c, mask=m, other=0.0)
    inv_std = 1.0 / tl.load(std_ptr + c, mask=m, other=1.0)
    src = (((b * T + t) * H + h) * W + w) * C + c
    v = tl.load(in_ptr + src, mask=m, other=0)
    tl.store(out_ptr + offs, _normalize(v, mean, inv_std), mask=m)


def run(frames: torch.Tensor, mean: torch.Tensor, std: torch.Tensor) -> torch.Tensor:
    B, T, H, W, C = frames.shape
    out = torch.empty((B, C, T, H, W), device=frames.device, dtype=torch.float32)
    total = out.numel()
    BLOCK = 1024
    grid = (triton.cdiv(total, BLOCK),)
    clip_normalize_kernel[grid](frames, mean, std, out, total, T, H, W, C, BLOCK=BLOCK, num_warps=4)
    return out
