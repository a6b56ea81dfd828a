"""SwiGLU parallelised over output columns: each program walks down one column, BLOCK rows apart."""
import torch
import triton
import triton.language as tl


@triton.jit
def swiglu_kernel(x_ptr, out_ptr, M, N, stride_x, stride_out, BLOCK: tl.constexpr):
    col = tl.program_id(0)
    rows = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = rows < M
    # The vector axis runs down a column: consecutive lanes are a whole row (2N elements) apart.
    g = tl.load(x_ptr + rows * stride_x + col, mask=mask, other=0.0).to(tl.float32)
    u = tl.load(x_ptr + rows * stride_x + N + col, mask=mask, other=0.0).to(tl.float32)
    act = g * tl.sigmoid(g)
    tl.store(out_ptr + rows * stride_out + col, (act * u).to(out_ptr.dtype.element_ty), mask=mask)


def run(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape[0], x.shape[1] // 2
    out = torch.empty((M, N), dtype=x.dtype, device=x.device)
    swiglu_kernel[(N, triton.cdiv(M, 256))](x, out, M, N, x.stride(0), out.stride(0), BLOCK=256)
    return out
