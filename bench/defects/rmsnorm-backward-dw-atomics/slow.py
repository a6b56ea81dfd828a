"""RMSNorm backward with one program per row that adds its weight-gradient row to dw with tl.atomic_add."""
import torch
import triton
import triton.language as tl


@triton.jit
def rmsnorm_bwd_kernel(dy_ptr, x_ptr, w_ptr, rstd_ptr, dx_ptr, dw_ptr, N, stride_row, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    dy = tl.load(dy_ptr + row * stride_row + cols, mask=mask, other=0.0).to(tl.float32)
    x = tl.load(x_ptr + row * stride_row + cols, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    rstd = tl.load(rstd_ptr + row)
    xhat = x * rstd
    g = dy * w
    dx = rstd * (g - xhat * (tl.sum(g * xhat, axis=0) / N))
    tl.store(dx_ptr + row * stride_row + cols, dx.to(dx_ptr.dtype.element_ty), mask=mask)
    tl.atomic_add(dw_ptr + cols, dy * xhat, mask=mask)


def run(dy, x, w, rstd) -> tuple[torch.Tensor, torch.Tensor]:
    M, N = x.shape
    dx = torch.empty_like(x)
    dw = torch.zeros(N, dtype=torch.float32, device=x.device)
    rmsnorm_bwd_kernel[(M,)](dy, x, w, rstd, dx, dw, N, x.stride(0), BLOCK=triton.next_power_of_2(N), num_warps=8)
    return dx, dw
