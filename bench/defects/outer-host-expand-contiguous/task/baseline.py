"""outer: 2-D tiles that load a slice of each vector once and store their broadcast product."""
import torch
import triton
import triton.language as tl


@triton.jit
def outer_kernel(a_ptr, b_ptr, out_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    a = tl.load(a_ptr + rm, mask=rm < M)
    b = tl.load(b_ptr + rn, mask=rn < N)
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], a[:, None] * b[None, :],
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def run(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    M, N = a.shape[0], b.shape[0]
    out = torch.empty((M, N), dtype=a.dtype, device=a.device)
    outer_kernel[(triton.cdiv(M, 32), triton.cdiv(N, 256))](a, b, out, M, N, BLOCK_M=32, BLOCK_N=256)
    return out
