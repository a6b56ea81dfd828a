"""Expert token counts as in vLLM's moe_align_block_size stage 1: each program walks its slice
of ids one at a time, bumping a private row of counts with a scalar load/store."""
import torch
import triton
import triton.language as tl


@triton.jit
def count_stage1(topk_ids_ptr, cnts_ptr, num_experts, numel, tokens_per_program):
    pid = tl.program_id(0)
    start = pid * tokens_per_program
    row = pid * num_experts
    for i in range(tokens_per_program):
        if start + i < numel:
            e = tl.load(topk_ids_ptr + start + i)
            c = tl.load(cnts_ptr + row + e)
            tl.store(cnts_ptr + row + e, c + 1)


@triton.jit
def count_stage2(cnts_ptr, out_ptr, num_experts, num_rows, BLOCK_E: tl.constexpr):
    experts = tl.arange(0, BLOCK_E)
    emask = experts < num_experts
    total = tl.zeros([BLOCK_E], dtype=tl.int32)
    for r in range(num_rows):
        total += tl.load(cnts_ptr + r * num_experts + experts, mask=emask, other=0)
    tl.store(out_ptr + experts, total, mask=emask)


def run(topk_ids: torch.Tensor, num_experts: int) -> torch.Tensor:
    numel = topk_ids.numel()
    programs = num_experts
    per_program = triton.cdiv(numel, programs)
    cnts = torch.zeros(programs, num_experts, dtype=torch.int32, device=topk_ids.device)
    out = torch.empty(num_experts, dtype=torch.int32, device=topk_ids.device)
    count_stage1[(programs,)](topk_ids, cnts, num_experts, numel, per_program)
    count_stage2[(1,)](cnts, out, num_experts, programs, BLOCK_E=triton.next_power_of_2(num_experts))
    return out
