"""argmin over dim 1 of [B, N, K]: one program per (b, 32-column block), [64, 32] tiles read along contiguous K."""
import torch
import triton
import triton.language as tl


@triton.jit
def argmin_dim1_kernel(x_ptr, out_ptr, N, K, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    b = tl.program_id(0)
    k = tl.program_id(1) * BLOCK_K + tl.arange(0, BLOCK_K)
    k_ok = k < K
    base = x_ptr + b.to(tl.int64) * N * K
    best_val = tl.full((BLOCK_K,), float("inf"), dtype=tl.float32)
    best_idx = tl.zeros((BLOCK_K,), dtype=tl.int32)
    for start in range(0, N, BLOCK_N):
        n = start + tl.arange(0, BLOCK_N)
        x = tl.load(base + n[:, None] * K + k[None, :], mask=(n[:, None] < N) & k_ok[None, :], other=float("inf"))
        cur = tl.min(x, axis=0)
        cur_idx = tl.min(tl.where(x == cur[None, :], n[:, None], N), axis=0)
        take = cur < best_val
        best_idx = tl.where(take, cur_idx, best_idx)
        best_val = tl.where(take, cur, best_val)
    tl.store(out_ptr + b * K + k, best_idx.to(tl.int64), mask=k_ok)


def run(x: torch.Tensor) -> torch.Tensor:
    B, N, K = x.shape
    out = torch.empty((B, K), dtype=torch.int64, device=x.device)
    BLOCK_K = 32
    argmin_dim1_kernel[(B, triton.cdiv(K, BLOCK_K))](x, out, N, K, BLOCK_N=64, BLOCK_K=BLOCK_K, num_warps=4)
    return out
