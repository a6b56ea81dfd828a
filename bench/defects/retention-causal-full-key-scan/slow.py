"""Parallel retention: one program per (128-query block, batch * head) over all key blocks, the decay mask zeroing future keys, tl.dot for q k^T and p v."""
import torch
import triton
import triton.language as tl


@triton.jit
def retention_fwd_kernel(q_ptr, k_ptr, v_ptr, o_ptr, log2_gamma_ptr, H, N,
                         D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    bh = tl.program_id(1)
    base = bh.to(tl.int64) * N * D
    log2_gamma = tl.load(log2_gamma_ptr + bh % H)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    d = tl.arange(0, D)
    q = tl.load(q_ptr + base + rows[:, None] * D + d[None, :], mask=rows[:, None] < N, other=0.0)
    acc = tl.zeros([BLOCK_M, D], dtype=tl.float32)
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        kt = tl.load(k_ptr + base + cols[None, :] * D + d[:, None], mask=cols[None, :] < N, other=0.0)
        v = tl.load(v_ptr + base + cols[:, None] * D + d[None, :], mask=cols[:, None] < N, other=0.0)
        s = tl.dot(q, kt)
        dist = (rows[:, None] - cols[None, :]).to(tl.float32)
        decay = tl.where(dist >= 0, tl.exp2(dist * log2_gamma), 0.0)
        acc += tl.dot((s * decay).to(v.dtype), v)
    tl.store(o_ptr + base + rows[:, None] * D + d[None, :], acc.to(o_ptr.dtype.element_ty), mask=rows[:, None] < N)


def run(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, log2_gamma: torch.Tensor) -> torch.Tensor:
    B, H, N, D = q.shape
    o = torch.empty_like(q)
    grid = (triton.cdiv(N, 128), B * H)
    retention_fwd_kernel[grid](q, k, v, o, log2_gamma, H, N, D=D, BLOCK_M=128, BLOCK_N=64, num_warps=8)
    return o
