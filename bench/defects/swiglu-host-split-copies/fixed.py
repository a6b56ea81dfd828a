"""SwiGLU reading gate and up in place from the fused tensor through its row stride."""
import torch
import triton
import triton.language as tl


@triton.jit
def swiglu_kernel(x_ptr, out_ptr, N, stride_x, stride_out, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < N
    g = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    u = tl.load(x_ptr + row * stride_x + N + cols, mask=mask, other=0.0).to(tl.float32)
    act = g * tl.sigmoid(g)
    tl.store(out_ptr + row * stride_out + cols, (act * u).to(out_ptr.dtype.element_ty), mask=mask)


def run(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape[0], x.shape[1] // 2
    out = torch.empty((M, N), dtype=x.dtype, device=x.device)
    swiglu_kernel[(M, triton.cdiv(N, 1024))](x, out, N, x.stride(0), out.stride(0), BLOCK=1024)
    return out
