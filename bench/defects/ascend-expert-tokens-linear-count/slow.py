"""npu_moe_compute_expert_tokens as a Triton kernel: one program per expert counts how many of the
sorted expert ids are <= its id, sweeping the whole id list in UB-sized blocks."""
import torch
import triton
import triton.language as tl


@triton.jit
def expert_tokens_kernel(sorted_ptr, out_ptr, n, BLOCK: tl.constexpr):
    e = tl.program_id(0)
    count = tl.zeros([BLOCK], dtype=tl.int32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        ids = tl.load(sorted_ptr + offs, mask=offs < n, other=2147483647)
        count += (ids <= e).to(tl.int32)
    tl.store(out_ptr + e, tl.sum(count, axis=0))


def run(sorted_experts: torch.Tensor, num_experts: int) -> torch.Tensor:
    n = sorted_experts.numel()
    out = torch.empty(num_experts, dtype=torch.int32, device=sorted_experts.device)
    expert_tokens_kernel[(num_experts,)](sorted_experts, out, n, BLOCK=4096)
    return out
