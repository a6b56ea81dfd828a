"""Baseline expert counts: on-chip histogram per program, one vector atomic."""
import torch
import triton
import triton.language as tl


@triton.jit
def expert_count_kernel(ids_ptr, counts_ptr, n, E, BINS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    expert = tl.load(ids_ptr + offs, mask=offs < n, other=E)  # padding lands in an unused bin
    hist = tl.histogram(expert, BINS)
    bins = tl.arange(0, BINS)
    tl.atomic_add(counts_ptr + bins, hist, mask=bins < E)


def run(topk_ids: torch.Tensor, num_experts: int) -> torch.Tensor:
    counts = torch.zeros(num_experts, dtype=torch.int32, device=topk_ids.device)
    n = topk_ids.numel()
    expert_count_kernel[(triton.cdiv(n, 4096),)](topk_ids, counts, n, num_experts,
                                                 BINS=triton.next_power_of_2(num_experts + 1), BLOCK=4096)
    return counts
