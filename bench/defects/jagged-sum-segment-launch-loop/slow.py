"""Jagged sum with one launch per segment: the offsets are read on the host and each segment gets its own grid."""
import torch
import triton
import triton.language as tl


@triton.jit
def segment_sum_kernel(values_ptr, out_ptr, start, end, D, BLOCK_R: tl.constexpr, BLOCK_D: tl.constexpr):
    rd = tl.program_id(0) * BLOCK_D + tl.arange(0, BLOCK_D)
    rr = tl.arange(0, BLOCK_R)
    acc = tl.zeros((BLOCK_R, BLOCK_D), dtype=tl.float32)
    for r in range(start, end, BLOCK_R):
        rows = r + rr
        mask = (rows[:, None] < end) & (rd[None, :] < D)
        acc += tl.load(values_ptr + rows[:, None] * D + rd[None, :], mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + rd, tl.sum(acc, axis=0).to(out_ptr.dtype.element_ty), mask=rd < D)


def run(values: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    D = values.shape[1]
    B = offsets.numel() - 1
    out = torch.empty((B, D), dtype=values.dtype, device=values.device)
    bounds = offsets.tolist()
    for seg in range(B):
        segment_sum_kernel[(triton.cdiv(D, 128),)](values, out[seg], bounds[seg], bounds[seg + 1], D,
                                                   BLOCK_R=32, BLOCK_D=128)
    return out
