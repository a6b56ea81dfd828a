"""LayerNorm dW in two stages: one program per vector core sums its rows into an fp32 row kept
on chip and writes one partial row; a second kernel adds the partial rows."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 48  # Atlas A2 (910B): 24 AI cores x 2 vector units


@triton.jit
def dw_partial_kernel(dy_ptr, xhat_ptr, part_ptr, M, N, stride_row, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    acc = tl.zeros([BLOCK_N], dtype=tl.float32)
    for row in range(pid, M, tl.num_programs(0)):
        dy = tl.load(dy_ptr + row * stride_row + cols, mask=mask, other=0.0).to(tl.float32)
        xhat = tl.load(xhat_ptr + row * stride_row + cols, mask=mask, other=0.0).to(tl.float32)
        acc += dy * xhat
    tl.store(part_ptr + pid * N + cols, acc, mask=mask)


@triton.jit
def dw_sum_kernel(part_ptr, dw_ptr, P, N, BLOCK_N: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = cols < N
    acc = tl.zeros([BLOCK_N], dtype=tl.float32)
    for p in range(P):
        acc += tl.load(part_ptr + p * N + cols, mask=mask, other=0.0)
    tl.store(dw_ptr + cols, acc, mask=mask)


def run(dy: torch.Tensor, xhat: torch.Tensor) -> torch.Tensor:
    M, N = dy.shape
    P = min(NUM_VECTOR_CORES, M)
    part = torch.empty(P, N, dtype=torch.float32, device=dy.device)
    dw = torch.empty(N, dtype=torch.float32, device=dy.device)
    dw_partial_kernel[(P,)](dy, xhat, part, M, N, dy.stride(0), BLOCK_N=triton.next_power_of_2(N))
    dw_sum_kernel[(triton.cdiv(N, 1024),)](part, dw, P, N, BLOCK_N=1024)
    return dw
