"""mv: 4 rows per program (256 programs at N = 1024), K walked in 1024-wide chunks."""
import torch
import triton
import triton.language as tl


@triton.jit
def mv_kernel(a_ptr, x_ptr, y_ptr, N, K, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_N, BLOCK_K), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        ks = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + rows[:, None].to(tl.int64) * K + ks[None, :],
                    mask=(rows[:, None] < N) & (ks[None, :] < K), other=0.0)
        xv = tl.load(x_ptr + ks, mask=ks < K, other=0.0)
        acc += a.to(tl.float32) * xv.to(tl.float32)[None, :]
    tl.store(y_ptr + rows, tl.sum(acc, axis=1).to(y_ptr.dtype.element_ty), mask=rows < N)


def run(a: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    N, K = a.shape
    y = torch.empty((N,), device=a.device, dtype=a.dtype)
    mv_kernel[(triton.cdiv(N, 4),)](a, x, y, N, K, BLOCK_N=4, BLOCK_K=1024, num_warps=4)
    return y
