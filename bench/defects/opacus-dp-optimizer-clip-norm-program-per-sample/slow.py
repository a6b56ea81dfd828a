"""DP-SGD step (Opacus DPOptimizer, flat clipping): per-sample norms, clip, sum, Gaussian noise, scale."""
import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _row_norm_clip(gs_ptr, norm_ptr, factor_ptr, P, stride_b, max_grad_norm, BLOCK: tl.constexpr):
    b = tl.program_id(0)
    row = gs_ptr + b * stride_b
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, P, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(row + cols, mask=cols < P, other=0.0)
        acc += x * x
    norm = tl.sqrt(tl.sum(acc, axis=0))
    tl.store(norm_ptr + b, norm)
    tl.store(factor_ptr + b, tl.minimum(max_grad_norm / (norm + 1e-6), 1.0))


@triton.jit
def _clip_accumulate_noise(gs_ptr, factor_ptr, noise_ptr, out_ptr, B, P, stride_b, noise_std, inv_batch,
                           BLOCK: tl.constexpr):
    cols = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = cols < P
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for b in range(0, B):
        f = tl.load(factor_ptr + b)
        acc += f * tl.load(gs_ptr + b * stride_b + cols, mask=ok, other=0.0)
    z = tl.load(noise_ptr + cols, mask=ok, other=0.0)
    tl.store(out_ptr + cols, (acc + noise_std * z) * inv_batch, mask=ok)


def run(grad_sample: torch.Tensor, noise: torch.Tensor, max_grad_norm: float,
        noise_multiplier: float, expected_batch_size: int) -> tuple:
    B, P = grad_sample.shape
    dev = grad_sample.device
    norms = torch.empty(B, device=dev, dtype=torch.float32)
    factors = torch.empty(B, device=dev, dtype=torch.float32)
    grad = torch.empty(P, device=dev, dtype=torch.float32)
    _row_norm_clip[(B,)](grad_sample, norms, factors, P, grad_sample.stride(0), max_grad_norm,
                         BLOCK=BLOCK, num_warps=4)
    _clip_accumulate_noise[(triton.cdiv(P, BLOCK),)](grad_sample, factors, noise, grad, B, P, grad_sample.stride(0),
                                                     noise_multiplier * max_grad_norm, 1.0 / expected_batch_size,
                                                     BLOCK=BLOCK, num_warps=4)
    return grad, norms
