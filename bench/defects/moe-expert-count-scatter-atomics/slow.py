"""Tokens per expert by one atomic increment per routed (token, expert) pair."""
import torch
import triton
import triton.language as tl


@triton.jit
def expert_count_kernel(ids_ptr, counts_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    expert = tl.load(ids_ptr + offs, mask=mask, other=0)
    tl.atomic_add(counts_ptr + expert, 1, mask=mask)


def run(topk_ids: torch.Tensor, num_experts: int) -> torch.Tensor:
    counts = torch.zeros(num_experts, dtype=torch.int32, device=topk_ids.device)
    n = topk_ids.numel()
    expert_count_kernel[(triton.cdiv(n, 1024),)](topk_ids, counts, n, BLOCK=1024)
    return counts
