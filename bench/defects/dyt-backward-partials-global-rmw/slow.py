"""DyT backward: 1024 programs over row slices; per row, per column chunk, dx plus running dgamma/dbeta partials."""
import torch
import triton
import triton.language as tl

NUM_PROGRAMS = 1024


@triton.jit
def dyt_bwd_kernel(x_ptr, dy_ptr, dx_ptr, alpha_ptr, gamma_ptr, dg_part_ptr, db_part_ptr, da_part_ptr,
                   M, N, rows_per_program, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    alpha = tl.load(alpha_ptr)
    row_start = pid * rows_per_program
    row_end = tl.minimum(row_start + rows_per_program, M)
    da_acc = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for row in range(row_start, row_end):
        base = row * N
        for c0 in range(0, N, BLOCK_N):
            cols = c0 + tl.arange(0, BLOCK_N)
            mask = cols < N
            x = tl.load(x_ptr + base + cols, mask=mask, other=0.0).to(tl.float32)
            dy = tl.load(dy_ptr + base + cols, mask=mask, other=0.0).to(tl.float32)
            g = tl.load(gamma_ptr + cols, mask=mask, other=0.0)
            t = 2.0 / (1.0 + tl.exp(-2.0 * alpha * x)) - 1.0
            dtanh = 1.0 - t * t
            tl.store(dx_ptr + base + cols, (dy * g * alpha * dtanh).to(dx_ptr.dtype.element_ty), mask=mask)
            da_acc += dy * g * x * dtanh
            # running per-program column partials of dgamma and dbeta
            dg = tl.load(dg_part_ptr + pid * N + cols, mask=mask, other=0.0)
            tl.store(dg_part_ptr + pid * N + cols, dg + dy * t, mask=mask)
            db = tl.load(db_part_ptr + pid * N + cols, mask=mask, other=0.0)
            tl.store(db_part_ptr + pid * N + cols, db + dy, mask=mask)
    tl.store(da_part_ptr + pid, tl.sum(da_acc, axis=0))


@triton.jit
def sum_rows_kernel(part_ptr, out_ptr, P, N, BLOCK_P: tl.constexpr, BLOCK_N: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_P, BLOCK_N), dtype=tl.float32)
    for p0 in range(0, P, BLOCK_P):
        p = p0 + tl.arange(0, BLOCK_P)
        m = (p[:, None] < P) & (cols[None, :] < N)
        acc += tl.load(part_ptr + p[:, None] * N + cols[None, :], mask=m, other=0.0)
    tl.store(out_ptr + cols, tl.sum(acc, axis=0), mask=cols < N)


def _sum_rows(part: torch.Tensor) -> torch.Tensor:
    P, N = part.shape
    out = torch.empty((N,), device=part.device, dtype=torch.float32)
    sum_rows_kernel[(triton.cdiv(N, 64),)](part, out, P, N, BLOCK_P=32, BLOCK_N=64)
    return out


def run(x: torch.Tensor, dy: torch.Tensor, alpha: torch.Tensor, gamma: torch.Tensor) -> tuple:
    M, N = x.shape
    P = min(NUM_PROGRAMS, M)
    rows_per_program = triton.cdiv(M, P)
    dx = torch.empty_like(x)
    dg_part = torch.zeros((P, N), device=x.device, dtype=torch.float32)
    db_part = torch.zeros((P, N), device=x.device, dtype=torch.float32)
    da_part = torch.empty((P,), device=x.device, dtype=torch.float32)
    dyt_bwd_kernel[(P,)](x, dy, dx, alpha, gamma, dg_part, db_part, da_part, M, N, rows_per_program,
                         BLOCK_N=1024, num_warps=4)
    return dx, _sum_rows(dg_part), _sum_rows(db_part), _sum_rows(da_part.view(P, 1))
