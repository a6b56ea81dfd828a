"""Sinkhorn column scaling v = b / (K^T u): one program per block of columns, rows walked in tiles."""
import torch
import triton
import triton.language as tl


@triton.jit
def _sinkhorn_col_scale(K, u, b, v, N, M, stride_kn, stride_km,
                        BLOCK_N: tl.constexpr, BLOCK_M: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    col_ok = cols < M
    acc = tl.zeros([BLOCK_N, BLOCK_M], dtype=tl.float32)
    for start in range(0, N, BLOCK_N):
        rows = start + tl.arange(0, BLOCK_N)
        row_ok = rows < N
        k = tl.load(K + rows[:, None] * stride_kn + cols[None, :] * stride_km,
                    mask=row_ok[:, None] & col_ok[None, :], other=0.0)
        w = tl.load(u + rows, mask=row_ok, other=0.0)
        acc += k * w[:, None]
    ktu = tl.sum(acc, axis=0)
    target = tl.load(b + cols, mask=col_ok, other=1.0)
    tl.store(v + cols, target / ktu, mask=col_ok)


def run(K: torch.Tensor, u: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    N, M = K.shape
    v = torch.empty(M, device=K.device, dtype=torch.float32)
    BLOCK_M = 32
    BLOCK_N = min(256, triton.next_power_of_2(N))
    grid = (triton.cdiv(M, BLOCK_M),)
    _sinkhorn_col_scale[grid](K, u, b, v, N, M, K.stride(0), K.stride(1),
                              BLOCK_N=BLOCK_N, BLOCK_M=BLOCK_M, num_warps=8)
    return v
