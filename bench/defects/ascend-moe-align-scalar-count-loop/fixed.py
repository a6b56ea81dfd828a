"""Expert token counts with the ids of each slice counted on chip by tl.histogram, a block of
ids at a time; padding lanes go to an extra bin E that is never stored."""
import torch
import triton
import triton.language as tl


@triton.jit
def count_stage1(topk_ids_ptr, cnts_ptr, num_experts, numel, tokens_per_program,
                 BLOCK: tl.constexpr, NBINS: tl.constexpr):
    pid = tl.program_id(0)
    start = pid * tokens_per_program
    bins = tl.arange(0, NBINS)
    counts = tl.zeros([NBINS], dtype=tl.int32)
    for s in range(0, tokens_per_program, BLOCK):
        offs = s + tl.arange(0, BLOCK)
        mask = (offs < tokens_per_program) & (start + offs < numel)
        e = tl.load(topk_ids_ptr + start + offs, mask=mask, other=num_experts)
        counts += tl.histogram(e, NBINS)
    tl.store(cnts_ptr + pid * num_experts + bins, counts, mask=bins < num_experts)


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
    cnts = torch.empty(programs, num_experts, dtype=torch.int32, device=topk_ids.device)
    out = torch.empty(num_experts, dtype=torch.int32, device=topk_ids.device)
    count_stage1[(programs,)](topk_ids, cnts, num_experts, numel, per_program,
                              BLOCK=1024, NBINS=triton.next_power_of_2(num_experts + 1))
    count_stage2[(1,)](cnts, out, num_experts, programs, BLOCK_E=triton.next_power_of_2(num_experts))
    return out
