"""MoE grouped-linear bias gradient: a segment sum over each expert's contiguous run of sorted rows."""
import torch
import triton
import triton.language as tl


@triton.jit
def expert_bias_grad_kernel(grad_ptr, offsets_ptr, dbias_ptr, H,
                            BLOCK_R: tl.constexpr, BLOCK_H: tl.constexpr):
    e = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)
    col_mask = cols < H
    start = tl.load(offsets_ptr + e)
    end = tl.load(offsets_ptr + e + 1)
    acc = tl.zeros((BLOCK_R, BLOCK_H), dtype=tl.float32)
    for r0 in range(start, end, BLOCK_R):
        rows = r0 + tl.arange(0, BLOCK_R)
        m = (rows < end)[:, None] & col_mask[None, :]
        g = tl.load(grad_ptr + rows.to(tl.int64)[:, None] * H + cols[None, :], mask=m, other=0.0)
        acc += g.to(tl.float32)
    tl.store(dbias_ptr + e * H + cols, tl.sum(acc, axis=0), mask=col_mask)


def run(grad_out: torch.Tensor, row_expert: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    R, H = grad_out.shape
    E = offsets.numel() - 1
    dbias = torch.empty((E, H), dtype=torch.float32, device=grad_out.device)
    BLOCK_H = 256
    grid = (E, triton.cdiv(H, BLOCK_H))
    expert_bias_grad_kernel[grid](grad_out, offsets, dbias, H, BLOCK_R=32, BLOCK_H=BLOCK_H, num_warps=8)
    return dbias
