"""Masked per-sequence loss mean with the targets narrowed to int32 before the != compare
(token ids and ignore_index fit int32; an i32 == / != stays a vector compare)."""
import torch
import triton
import triton.language as tl


@triton.jit
def masked_mean_kernel(loss_ptr, target_ptr, out_ptr, T, ignore_index, BLOCK: tl.constexpr):
    b = tl.program_id(0)
    total = tl.zeros([BLOCK], dtype=tl.float32)
    count = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, T, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        inb = cols < T
        loss = tl.load(loss_ptr + b * T + cols, mask=inb, other=0.0)
        target = tl.load(target_ptr + b * T + cols, mask=inb, other=ignore_index)
        valid = target.to(tl.int32) != ignore_index
        total += tl.where(valid, loss, 0.0)
        count += tl.where(valid, 1.0, 0.0)
    n = tl.maximum(tl.sum(count, axis=0), 1.0)
    tl.store(out_ptr + b, tl.sum(total, axis=0) / n)


def run(loss: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    B, T = loss.shape
    out = torch.empty(B, dtype=loss.dtype, device=loss.device)
    masked_mean_kernel[(B,)](loss, target, out, T, -100, BLOCK=4096)
    return out
