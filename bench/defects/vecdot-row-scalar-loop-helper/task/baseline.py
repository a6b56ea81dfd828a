"""Baseline batched vecdot: one program per row, a 1024-wide vector loop, one reduction."""
import torch
import triton
import triton.language as tl


@triton.jit
def _dot_row(a_ptr, b_ptr, D, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, D, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        m = cols < D
        a = tl.load(a_ptr + cols, mask=m, other=0.0).to(tl.float32)
        b = tl.load(b_ptr + cols, mask=m, other=0.0).to(tl.float32)
        acc += a * b
    return tl.sum(acc, axis=0)


@triton.jit
def vecdot_kernel(q_ptr, d_ptr, out_ptr, D, stride_q, stride_d, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    s = _dot_row(q_ptr + row * stride_q, d_ptr + row * stride_d, D, BLOCK)
    tl.store(out_ptr + row, s.to(out_ptr.dtype.element_ty))


def run(q: torch.Tensor, d: torch.Tensor) -> torch.Tensor:
    M, D = q.shape
    out = torch.empty((M,), device=q.device, dtype=q.dtype)
    vecdot_kernel[(M,)](q, d, out, D, q.stride(0), d.stride(0), BLOCK=1024)
    return out
