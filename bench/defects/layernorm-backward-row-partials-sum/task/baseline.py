"""LayerNorm backward: persistent programs (one per SM) over row ranges, dgamma / dbeta partials in registers."""
import torch
import triton
import triton.language as tl


@triton.jit
def ln_bwd_persistent_kernel(dy_ptr, x_ptr, w_ptr, mean_ptr, rstd_ptr, dx_ptr, dw_part_ptr, db_part_ptr,
                             M, N, rows_per_program, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    w = tl.load(w_ptr + cols, mask=mask, other=0.0)
    dw_acc = tl.zeros((BLOCK_N,), dtype=tl.float32)
    db_acc = tl.zeros((BLOCK_N,), dtype=tl.float32)
    row_start = pid * rows_per_program
    row_end = tl.minimum(row_start + rows_per_program, M)
    for r in range(0, row_end - row_start):
        row = row_start + r
        base = row.to(tl.int64) * N
        x = tl.load(x_ptr + base + cols, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(dy_ptr + base + cols, mask=mask, other=0.0).to(tl.float32)
        mean = tl.load(mean_ptr + row)
        rstd = tl.load(rstd_ptr + row)
        xhat = tl.where(mask, (x - mean) * rstd, 0.0)
        wdy = w * dy
        c1 = tl.sum(xhat * wdy, axis=0) / N
        c2 = tl.sum(wdy, axis=0) / N
        dx = (wdy - (xhat * c1 + c2)) * rstd
        tl.store(dx_ptr + base + cols, dx.to(dx_ptr.dtype.element_ty), mask=mask)
        dw_acc += dy * xhat
        db_acc += dy
    tl.store(dw_part_ptr + pid * N + cols, dw_acc, mask=mask)
    tl.store(db_part_ptr + pid * N + cols, db_acc, mask=mask)


@triton.jit
def col_sum_kernel(src_ptr, out_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    col_mask = cols < N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for m0 in range(0, M, BLOCK_M):
        rows = m0 + tl.arange(0, BLOCK_M)
        m = (rows < M)[:, None] & col_mask[None, :]
        acc += tl.load(src_ptr + rows.to(tl.int64)[:, None] * N + cols[None, :], mask=m, other=0.0).to(tl.float32)
    tl.store(out_ptr + cols, tl.sum(acc, axis=0), mask=col_mask)


def _warps(block: int) -> int:
    return min(max(block // 512, 1), 16)


def _num_programs(device: torch.device) -> int:
    if device.type == "cuda":
        return torch.cuda.get_device_properties(device).multi_processor_count
    return 4


def run(dy: torch.Tensor, x: torch.Tensor, w: torch.Tensor, mean: torch.Tensor, rstd: torch.Tensor) -> tuple:
    M, N = x.shape
    G = min(_num_programs(x.device), M)
    rows_per_program = triton.cdiv(M, G)
    dx = torch.empty_like(x)
    dw_part = torch.empty((G, N), dtype=torch.float32, device=x.device)
    db_part = torch.empty((G, N), dtype=torch.float32, device=x.device)
    dw = torch.empty((N,), dtype=torch.float32, device=x.device)
    db = torch.empty((N,), dtype=torch.float32, device=x.device)
    BLOCK_N = triton.next_power_of_2(N)
    ln_bwd_persistent_kernel[(G,)](dy, x, w, mean, rstd, dx, dw_part, db_part, M, N, rows_per_program,
                                   BLOCK_N=BLOCK_N, num_warps=_warps(BLOCK_N))
    grid = (triton.cdiv(N, 32),)
    col_sum_kernel[grid](dw_part, dw, G, N, BLOCK_M=256, BLOCK_N=32)
    col_sum_kernel[grid](db_part, db, G, N, BLOCK_M=256, BLOCK_N=32)
    return dx, dw, db
