"""Baseline Triton row log-sum-exp: one program per row, whole row in one block."""
import torch
import triton
import triton.language as tl


@triton.jit
def logsumexp_kernel(x_ptr, out_ptr, N, stride_row, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    m = -float("inf")  # running max of the row
    row_sum = 0.0  # running sum of exp(x - m)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride_row + cols, mask=cols < N, other=-float("inf"))
        x = x.to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0).to(tl.float32))
        m_ref = tl.where(m_new == -float("inf"), 0.0, m_new)
        row_sum = row_sum * tl.exp(m - m_ref) + tl.sum(tl.exp(x - m_ref), axis=0)
        m = m_new
    lse = m + tl.log(row_sum)
    tl.store(out_ptr + row, lse.to(out_ptr.dtype.element_ty))


def run(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty(M, dtype=x.dtype, device=x.device)
    logsumexp_kernel[(M,)](x, out, N, x.stride(0), BLOCK=min(4096, triton.next_power_of_2(N)), num_warps=8)
    return out
