"""Masked mean pooling: one program per (sequence, 128 features), 32-row tiles over the padded length, the sequence length in the load mask."""
import torch
import triton
import triton.language as tl


@triton.jit
def mean_pool_kernel(h_ptr, len_ptr, out_ptr, L, D, BLOCK_L: tl.constexpr, BLOCK_D: tl.constexpr):
    b = tl.program_id(0)
    d = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    length = tl.load(len_ptr + b)
    base = b.to(tl.int64) * L * D
    acc = tl.zeros([BLOCK_L, BLOCK_D], dtype=tl.float32)
    for start in range(0, L, BLOCK_L):
        rows = start + tl.arange(0, BLOCK_L)
        valid = (rows[:, None] < length) & (d[None, :] < D)
        acc += tl.load(h_ptr + base + rows[:, None] * D + d[None, :], mask=valid, other=0.0).to(tl.float32)
    total = tl.sum(acc, axis=0) / tl.maximum(length, 1).to(tl.float32)
    tl.store(out_ptr + b * D + d, total, mask=d < D)


def run(hidden: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    B, L, D = hidden.shape
    out = torch.empty((B, D), dtype=torch.float32, device=hidden.device)
    mean_pool_kernel[(B, triton.cdiv(D, 128))](hidden, lengths, out, L, D, BLOCK_L=32, BLOCK_D=128)
    return out
