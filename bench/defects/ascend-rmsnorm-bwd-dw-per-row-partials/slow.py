"""RMSNorm backward for triton-ascend: a row kernel writes dX and each row's dW term, and a column-sum
kernel reduces the dW terms."""
import torch
import triton
import triton.language as tl


@triton.jit
def _rms_row_backward(dy, x, w, rstd, n_cols):
    x_hat = x * rstd
    m = dy * w
    dot = tl.sum(m * x_hat, axis=0) / n_cols
    dx = rstd * (m - x_hat * dot)
    return dx, dy * x_hat


@triton.jit
def rmsnorm_bwd_kernel(DY, X, W, RSTD, DX, DW_PART, n_cols, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    cmask = cols < n_cols
    w = tl.load(W + cols, mask=cmask, other=0.0).to(tl.float32)
    base = row * n_cols
    dy = tl.load(DY + base + cols, mask=cmask, other=0.0).to(tl.float32)
    x = tl.load(X + base + cols, mask=cmask, other=0.0).to(tl.float32)
    rstd = tl.load(RSTD + row)
    dx, dw_row = _rms_row_backward(dy, x, w, rstd, n_cols)
    tl.store(DX + base + cols, dx.to(DX.dtype.element_ty), mask=cmask)
    tl.store(DW_PART + base + cols, dw_row, mask=cmask)


@triton.jit
def column_sum_kernel(PART, OUT, n_parts, n_cols, BLOCK_P: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    cols = pid * BLOCK_C + tl.arange(0, BLOCK_C)
    cmask = cols < n_cols
    acc = tl.zeros([BLOCK_C], dtype=tl.float32)
    for start in range(0, n_parts, BLOCK_P):
        rows = start + tl.arange(0, BLOCK_P)
        tile = tl.load(PART + rows[:, None] * n_cols + cols[None, :],
                       mask=(rows[:, None] < n_parts) & cmask[None, :], other=0.0)
        acc += tl.sum(tile, axis=0)
    tl.store(OUT + cols, acc.to(OUT.dtype.element_ty), mask=cmask)


def run(dy: torch.Tensor, x: torch.Tensor, w: torch.Tensor, rstd: torch.Tensor) -> tuple:
    M, N = x.shape
    dx = torch.empty_like(x)
    dw = torch.empty_like(w)
    block_n = triton.next_power_of_2(N)
    dw_part = torch.empty((M, N), dtype=torch.float32, device=x.device)
    rmsnorm_bwd_kernel[(M,)](dy, x, w, rstd, dx, dw_part, N, BLOCK_N=block_n)
    block_c = 128
    column_sum_kernel[(triton.cdiv(N, block_c),)](dw_part, dw, M, N, BLOCK_P=64, BLOCK_C=block_c)
    return dx, dw
