"""npu_moe_compute_expert_tokens as a Triton kernel: the ids are sorted, so each expert's end
offset is an upper-bound binary search; one program searches for all experts at once."""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def expert_tokens_kernel(sorted_ptr, out_ptr, n, num_experts, n_steps, BLOCK_E: tl.constexpr):
    e = tl.arange(0, BLOCK_E)
    emask = e < num_experts
    lo = tl.zeros([BLOCK_E], dtype=tl.int32)
    hi = tl.zeros([BLOCK_E], dtype=tl.int32) + n
    for _ in range(n_steps):
        active = lo < hi
        mid = (lo + hi) // 2
        v = tl.load(sorted_ptr + mid, mask=emask & active, other=0)
        right = v <= e
        lo = tl.where(active & right, mid + 1, lo)
        hi = tl.where(active & (v > e), mid, hi)
    tl.store(out_ptr + e, lo, mask=emask)


def run(sorted_experts: torch.Tensor, num_experts: int) -> torch.Tensor:
    n = sorted_experts.numel()
    out = torch.empty(num_experts, dtype=torch.int32, device=sorted_experts.device)
    n_steps = max(1, math.ceil(math.log2(n + 1)))
    expert_tokens_kernel[(1,)](sorted_experts, out, n, num_experts, n_steps,
                               BLOCK_E=triton.next_power_of_2(num_experts))
    return out
