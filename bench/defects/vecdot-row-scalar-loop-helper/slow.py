"""Batched vecdot: one program per row, the dot product returned by a helper that walks the row element by element."""
import torch
import triton
import triton.language as tl


@triton.jit
def _dot_row(a_ptr, b_ptr, D):
    acc = 0.0
    for i in range(0, D):
        a = tl.load(a_ptr + i).to(tl.float32)
        b = tl.load(b_ptr + i).to(tl.float32)
        acc += a * b
    return acc


@triton.jit
def vecdot_kernel(q_ptr, d_ptr, out_ptr, D, stride_q, stride_d):
    row = tl.program_id(0)
    s = _dot_row(q_ptr + row * stride_q, d_ptr + row * stride_d, D)
    tl.store(out_ptr + row, s.to(out_ptr.dtype.element_ty))


def run(q: torch.Tensor, d: torch.Tensor) -> torch.Tensor:
    M, D = q.shape
    out = torch.empty((M,), device=q.device, dtype=q.dtype)
    vecdot_kernel[(M,)](q, d, out, D, q.stride(0), d.stride(0))
    return out
