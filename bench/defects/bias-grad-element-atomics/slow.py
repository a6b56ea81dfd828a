"""Bias gradient: a flat elementwise grid over grad_output, each element atomically added to its column's fp32 slot."""
import torch
import triton
import triton.language as tl


@triton.jit
def bias_grad_kernel(dy_ptr, db_ptr, total, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    dy = tl.load(dy_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.atomic_add(db_ptr + offs % N, dy, mask=mask)


def run(dy: torch.Tensor) -> torch.Tensor:
    M, N = dy.shape
    db = torch.zeros(N, dtype=torch.float32, device=dy.device)
    bias_grad_kernel[(triton.cdiv(M * N, 1024),)](dy, db, M * N, N, BLOCK=1024)
    return db
