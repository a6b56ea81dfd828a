"""Bias gradient in two stages: (column block, row split) programs sum their slab in registers into partial rows, then the partials are added."""
import torch
import triton
import triton.language as tl


@triton.jit
def partial_sum_kernel(dy_ptr, partial_ptr, M, N, rows_per_split, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_n = tl.program_id(0)
    split = tl.program_id(1)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    row_start = split * rows_per_split
    row_end = tl.minimum(row_start + rows_per_split, M)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for r in range(row_start, row_end, BLOCK_M):
        rows = r + tl.arange(0, BLOCK_M)
        m = (rows[:, None] < row_end) & (cols[None, :] < N)
        acc += tl.load(dy_ptr + rows[:, None] * N + cols[None, :], mask=m, other=0.0).to(tl.float32)
    tl.store(partial_ptr + split * N + cols, tl.sum(acc, axis=0), mask=cols < N)


@triton.jit
def finish_kernel(partial_ptr, db_ptr, N, SPLITS: tl.constexpr, BLOCK: tl.constexpr):
    cols = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for s in range(SPLITS):
        acc += tl.load(partial_ptr + s * N + cols, mask=cols < N, other=0.0)
    tl.store(db_ptr + cols, acc, mask=cols < N)


def run(dy: torch.Tensor) -> torch.Tensor:
    M, N = dy.shape
    splits = 32
    partial = torch.empty((splits, N), dtype=torch.float32, device=dy.device)
    db = torch.empty(N, dtype=torch.float32, device=dy.device)
    partial_sum_kernel[(triton.cdiv(N, 128), splits)](dy, partial, M, N, triton.cdiv(M, splits),
                                                      BLOCK_M=32, BLOCK_N=128)
    finish_kernel[(triton.cdiv(N, 1024),)](partial, db, N, SPLITS=splits, BLOCK=1024)
    return db
