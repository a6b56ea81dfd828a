"""Jagged sum in one launch: program (segment, column block) reads its bounds from the offsets tensor."""
import torch
import triton
import triton.language as tl


@triton.jit
def jagged_sum_kernel(values_ptr, offsets_ptr, out_ptr, D, BLOCK_R: tl.constexpr, BLOCK_D: tl.constexpr):
    seg = tl.program_id(0)
    rd = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    rr = tl.arange(0, BLOCK_R)
    start = tl.load(offsets_ptr + seg)
    end = tl.load(offsets_ptr + seg + 1)
    acc = tl.zeros((BLOCK_R, BLOCK_D), dtype=tl.float32)
    for r in range(start, end, BLOCK_R):
        rows = r + rr
        mask = (rows[:, None] < end) & (rd[None, :] < D)
        acc += tl.load(values_ptr + rows[:, None] * D + rd[None, :], mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + seg * D + rd, tl.sum(acc, axis=0).to(out_ptr.dtype.element_ty), mask=rd < D)


def run(values: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    D = values.shape[1]
    B = offsets.numel() - 1
    out = torch.empty((B, D), dtype=values.dtype, device=values.device)
    jagged_sum_kernel[(B, triton.cdiv(D, 128))](values, offsets, out, D, BLOCK_R=32, BLOCK_D=128)
    return out
