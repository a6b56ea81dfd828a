"""RMSNorm backward with per-program dw partials (one program per SM over strided rows) and a column sum."""
import torch
import triton
import triton.language as tl


@triton.jit
def rmsnorm_bwd_kernel(dy_ptr, x_ptr, w_ptr, rstd_ptr, dx_ptr, partial_ptr, M, N, stride_row,
                       BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    dw = tl.zeros((BLOCK,), dtype=tl.float32)
    for row in range(tl.program_id(0), M, tl.num_programs(0)):
        dy = tl.load(dy_ptr + row * stride_row + cols, mask=mask, other=0.0).to(tl.float32)
        x = tl.load(x_ptr + row * stride_row + cols, mask=mask, other=0.0).to(tl.float32)
        rstd = tl.load(rstd_ptr + row)
        xhat = x * rstd
        g = dy * w
        dx = rstd * (g - xhat * (tl.sum(g * xhat, axis=0) / N))
        tl.store(dx_ptr + row * stride_row + cols, dx.to(dx_ptr.dtype.element_ty), mask=mask)
        dw += dy * xhat
    tl.store(partial_ptr + tl.program_id(0) * N + cols, dw, mask=mask)


@triton.jit
def column_sum_kernel(partial_ptr, dw_ptr, P, N, BLOCK_P: tl.constexpr, BLOCK_N: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for p in range(0, P, BLOCK_P):
        rows = p + tl.arange(0, BLOCK_P)
        part = tl.load(partial_ptr + rows[:, None] * N + cols[None, :],
                       mask=(rows[:, None] < P) & (cols[None, :] < N), other=0.0)
        acc += tl.sum(part, axis=0)
    tl.store(dw_ptr + cols, acc, mask=cols < N)


def run(dy, x, w, rstd) -> tuple[torch.Tensor, torch.Tensor]:
    M, N = x.shape
    programs = torch.cuda.get_device_properties(x.device).multi_processor_count if x.is_cuda else 4
    dx = torch.empty_like(x)
    partial = torch.empty((programs, N), dtype=torch.float32, device=x.device)
    dw = torch.empty(N, dtype=torch.float32, device=x.device)
    rmsnorm_bwd_kernel[(programs,)](dy, x, w, rstd, dx, partial, M, N, x.stride(0),
                                    BLOCK=triton.next_power_of_2(N), num_warps=8)
    column_sum_kernel[(triton.cdiv(N, 128),)](partial, dw, programs, N, BLOCK_P=32, BLOCK_N=128)
    return dx, dw
