"""MoE grouped-linear bias gradient: every permuted row is added into its expert's bias gradient."""
import torch
import triton
import triton.language as tl


@triton.heuristics({"BLOCK_H": lambda args: triton.next_power_of_2(args["H"])})
@triton.jit
def expert_bias_grad_kernel(grad_ptr, expert_ptr, dbias_ptr, H, BLOCK_H: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_H)
    mask = cols < H
    e = tl.load(expert_ptr + row)
    g = tl.load(grad_ptr + row.to(tl.int64) * H + cols, mask=mask, other=0.0)
    tl.atomic_add(dbias_ptr + e * H + cols, g.to(tl.float32), mask=mask)


def run(grad_out: torch.Tensor, row_expert: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    R, H = grad_out.shape
    E = offsets.numel() - 1
    dbias = torch.zeros((E, H), dtype=torch.float32, device=grad_out.device)
    expert_bias_grad_kernel[(R,)](grad_out, row_expert, dbias, H)
    return dbias
