"""Sinkhorn column scaling v = b / (K^T u): one program per target column."""
import torch
import triton
import triton.language as tl


@triton.jit
def _sinkhorn_col_scale(K, u, b, v, N, M, stride_kn, stride_km, BLOCK: tl.constexpr):
    col = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        rows = start + tl.arange(0, BLOCK)
        row_ok = rows < N
        k = tl.load(K + rows * stride_kn + col * stride_km, mask=row_ok, other=0.0)
        w = tl.load(u + rows, mask=row_ok, other=0.0)
        acc += k * w
    ktu = tl.sum(acc, axis=0)
    tl.store(v + col, tl.load(b + col) / ktu)


def run(K: torch.Tensor, u: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    N, M = K.shape
    v = torch.empty(M, device=K.device, dtype=torch.float32)
    BLOCK = min(1024, triton.next_power_of_2(N))
    _sinkhorn_col_scale[(M,)](K, u, b, v, N, M, K.stride(0), K.stride(1), BLOCK=BLOCK, num_warps=4)
    return v
