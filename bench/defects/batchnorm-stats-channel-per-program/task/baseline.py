"""BatchNorm stats: [64 rows, 64 channels] tiles along the contiguous channel axis, split over row ranges, then a combine."""
import torch
import triton
import triton.language as tl


@triton.jit
def partial_stats_kernel(x_ptr, psum_ptr, psq_ptr, M, C, rows_per_split,
                         BLOCK_M: tl.constexpr, BLOCK_C: tl.constexpr):
    rc = tl.program_id(0) * BLOCK_C + tl.arange(0, BLOCK_C)
    split = tl.program_id(1)
    rm = tl.arange(0, BLOCK_M)
    s = tl.zeros((BLOCK_M, BLOCK_C), dtype=tl.float32)
    q = tl.zeros((BLOCK_M, BLOCK_C), dtype=tl.float32)
    start = split * rows_per_split
    for r in range(start, start + rows_per_split, BLOCK_M):
        rows = r + rm
        mask = (rows[:, None] < M) & (rc[None, :] < C)
        x = tl.load(x_ptr + rows[:, None].to(tl.int64) * C + rc[None, :], mask=mask, other=0.0).to(tl.float32)
        s += x
        q += x * x
    tl.store(psum_ptr + split * C + rc, tl.sum(s, axis=0), mask=rc < C)
    tl.store(psq_ptr + split * C + rc, tl.sum(q, axis=0), mask=rc < C)


@triton.jit
def combine_kernel(psum_ptr, psq_ptr, mean_ptr, var_ptr, M, C, n_split, BLOCK_C: tl.constexpr):
    rc = tl.program_id(0) * BLOCK_C + tl.arange(0, BLOCK_C)
    cmask = rc < C
    s = tl.zeros((BLOCK_C,), dtype=tl.float32)
    q = tl.zeros((BLOCK_C,), dtype=tl.float32)
    for i in range(0, n_split):
        s += tl.load(psum_ptr + i * C + rc, mask=cmask, other=0.0)
        q += tl.load(psq_ptr + i * C + rc, mask=cmask, other=0.0)
    mean = s / M
    tl.store(mean_ptr + rc, mean, mask=cmask)
    tl.store(var_ptr + rc, q / M - mean * mean, mask=cmask)


def run(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    M, C = x.shape
    n_split = max(1, min(64, triton.cdiv(M, 2048)))
    rows_per_split = triton.cdiv(triton.cdiv(M, n_split), 64) * 64
    psum = torch.empty((n_split, C), dtype=torch.float32, device=x.device)
    psq = torch.empty((n_split, C), dtype=torch.float32, device=x.device)
    mean = torch.empty(C, dtype=torch.float32, device=x.device)
    var = torch.empty(C, dtype=torch.float32, device=x.device)
    partial_stats_kernel[(triton.cdiv(C, 64), n_split)](x, psum, psq, M, C, rows_per_split, BLOCK_M=64, BLOCK_C=64)
    combine_kernel[(triton.cdiv(C, 128),)](psum, psq, mean, var, M, C, n_split, BLOCK_C=128)
    return mean, var
