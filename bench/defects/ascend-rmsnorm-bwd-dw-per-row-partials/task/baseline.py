"""RMSNorm backward for triton-ascend (Liger-Kernel layout): one program per vector core over a range of
rows, dW partials kept on chip and reduced by a column-sum kernel."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _rms_row_backward(dy, x, w, rstd, n_cols):
    x_hat = x * rstd
    m = dy * w
    dot = tl.sum(m * x_hat, axis=0) / n_cols
    dx = rstd * (m - x_hat * dot)
    return dx, dy * x_hat


@triton.jit
def rmsnorm_bwd_kernel(DY, X, W, RSTD, DX, DW_PART, n_rows, n_cols, rows_per_program, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    cmask = cols < n_cols
    w = tl.load(W + cols, mask=cmask, other=0.0).to(tl.float32)
    dw_acc = tl.zeros([BLOCK_N], dtype=tl.float32)
    row_start = pid * rows_per_program
    row_end = tl.minimum(row_start + rows_per_program, n_rows)
    for row in range(row_start, row_end):
        base = row * n_cols
        dy = tl.load(DY + base + cols, mask=cmask, other=0.0).to(tl.float32)
        x = tl.load(X + base + cols, mask=cmask, other=0.0).to(tl.float32)
        rstd = tl.load(RSTD + row)
        dx, dw_row = _rms_row_backward(dy, x, w, rstd, n_cols)
        tl.store(DX + base + cols, dx.to(DX.dtype.element_ty), mask=cmask)
        dw_acc += dw_row
    tl.store(DW_PART + pid * n_cols + cols, dw_acc, mask=cmask)


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
    n_programs = min(M, NUM_VECTOR_CORES)
    rows_per_program = triton.cdiv(M, n_programs)
    dw_part = torch.empty((n_programs, N), dtype=torch.float32, device=x.device)
    rmsnorm_bwd_kernel[(n_programs,)](dy, x, w, rstd, dx, dw_part, M, N, rows_per_program, BLOCK_N=block_n)
    block_c = 128
    column_sum_kernel[(triton.cdiv(N, block_c),)](dw_part, dw, n_programs, N, BLOCK_P=64, BLOCK_C=block_c)
    return dx, dw
