"""Prioritized-replay sampling: vectorised upper-bound binary search in the priority prefix sum."""
import torch
import triton
import triton.language as tl


@triton.jit
def _is_weight(prio_ptr, idx, mask, total, n, beta):
    p = tl.load(prio_ptr + idx, mask=mask, other=1.0)
    return tl.exp(-beta * tl.log(n * (p / total)))


@triton.jit
def per_sample_kernel(prio_ptr, cdf_ptr, tgt_ptr, idx_ptr, w_ptr, n, n_samples, beta, n_steps,
                      BLOCK_B: tl.constexpr):
    pid = tl.program_id(0)
    b = pid * BLOCK_B + tl.arange(0, BLOCK_B)
    b_mask = b < n_samples
    t = tl.load(tgt_ptr + b, mask=b_mask, other=0.0)
    total = tl.load(cdf_ptr + n - 1)
    lo = tl.zeros((BLOCK_B,), dtype=tl.int32)
    hi = tl.zeros((BLOCK_B,), dtype=tl.int32) + n
    for _ in range(n_steps):
        active = lo < hi
        mid = (lo + hi) // 2
        c = tl.load(cdf_ptr + mid, mask=b_mask & active, other=0.0)
        right = active & (c <= t)
        lo = tl.where(right, mid + 1, lo)
        hi = tl.where(active & (c > t), mid, hi)
    idx = tl.minimum(lo, n - 1)
    tl.store(idx_ptr + b, idx.to(tl.int64), mask=b_mask)
    tl.store(w_ptr + b, _is_weight(prio_ptr, idx, b_mask, total, n, beta), mask=b_mask)


def run(prio: torch.Tensor, cdf: torch.Tensor, targets: torch.Tensor, beta: float) -> tuple:
    n, n_samples = prio.shape[0], targets.shape[0]
    idx = torch.empty(n_samples, device=prio.device, dtype=torch.int64)
    weight = torch.empty(n_samples, device=prio.device, dtype=torch.float32)
    BLOCK_B = 128
    n_steps = (n + 1).bit_length()
    grid = (triton.cdiv(n_samples, BLOCK_B),)
    per_sample_kernel[grid](prio, cdf, targets, idx, weight, n, n_samples, beta, n_steps,
                            BLOCK_B=BLOCK_B, num_warps=4)
    return idx, weight
