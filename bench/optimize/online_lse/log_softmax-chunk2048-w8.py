"""Baseline Triton log-softmax: one program per row, whole row in one block."""
import torch
import triton
import triton.language as tl


@triton.jit
def log_softmax_kernel(x_ptr, out_ptr, N, stride_x, stride_out, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    row_max = -float("inf")  # running max of the row
    row_sum = 0.0  # running sum of exp(x - row_max)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(row_max, tl.max(x, axis=0).to(tl.float32))
        m_ref = tl.where(m_new == -float("inf"), 0.0, m_new)
        row_sum = row_sum * tl.exp(row_max - m_ref) + tl.sum(tl.exp(x - m_ref), axis=0)
        row_max = m_new
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=-float("inf")).to(tl.float32)
        shifted = x - row_max
        y = shifted - tl.log(row_sum)
        tl.store(out_ptr + row * stride_out + cols, y.to(out_ptr.dtype.element_ty), mask=mask)


def run(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty_like(x)
    log_softmax_kernel[(M,)](x, out, N, x.stride(0), out.stride(0), BLOCK=min(2048, triton.next_power_of_2(N)), num_warps=8)
    return out
