"""Factored Adafactor step (HF transformers Adafactor, no momentum) for one bf16 weight on the NPU.

Four launches over the vector cores: grad^2 row sums (row EMA) and per-program column partials,
the column EMA plus the row-EMA mean, the update's sum of squares, and the clipped update applied
to the parameter. Tiles hold whole rows, math is fp32."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40   # Atlas A2: 20 AI cores x 2 AIV
UB_TILE_ELEMS = 4096    # fp32 elements per [rows, C] tile; grad, param, update and result share the 192 KB UB
EPS1 = 1e-30
CLIP_THRESHOLD = 1.0
DECAY_RATE = -0.8


@triton.jit
def _row_tile(ptr, rows, R, C, BLOCK_C: tl.constexpr):
    cols = tl.arange(0, BLOCK_C)
    mask = (rows < R)[:, None] & (cols < C)[None, :]
    x = tl.load(ptr + rows[:, None] * C + cols[None, :], mask=mask, other=0.0)
    return x.to(tl.float32), mask


@triton.jit
def _scaled_update(g, rows, R, row_ptr, row_mean, c_factor):
    r = tl.load(row_ptr + rows, mask=rows < R, other=1.0)
    r_factor = tl.rsqrt(r / row_mean)
    return g * r_factor[:, None] * c_factor[None, :]


@triton.jit
def grad_sq_stats_kernel(grad_ptr, row_in_ptr, row_out_ptr, col_part_ptr, R, C, beta2t, eps1,
                         NUM_PROGS: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK_C)
    col_acc = tl.zeros([BLOCK_C], dtype=tl.float32)
    for rb in range(pid, tl.cdiv(R, BLOCK_R), NUM_PROGS):
        rows = rb * BLOCK_R + tl.arange(0, BLOCK_R)
        g, mask = _row_tile(grad_ptr, rows, R, C, BLOCK_C)
        sq = tl.where(mask, g * g + eps1, 0.0)
        row_old = tl.load(row_in_ptr + rows, mask=rows < R, other=0.0)
        row_new = beta2t * row_old + (1.0 - beta2t) * (tl.sum(sq, axis=1) / C)
        tl.store(row_out_ptr + rows, row_new, mask=rows < R)
        col_acc += tl.sum(sq, axis=0)
    tl.store(col_part_ptr + pid * BLOCK_C + cols, col_acc)


@triton.jit
def factor_stats_kernel(col_part_ptr, col_in_ptr, col_out_ptr, row_ptr, row_mean_ptr, R, C, beta2t, n_parts,
                        BLOCK_C: tl.constexpr, BLOCK_RS: tl.constexpr):
    cols = tl.arange(0, BLOCK_C)
    col_sum = tl.zeros([BLOCK_C], dtype=tl.float32)
    for p in range(0, n_parts):
        col_sum += tl.load(col_part_ptr + p * BLOCK_C + cols)
    col_old = tl.load(col_in_ptr + cols, mask=cols < C, other=1.0)
    col_new = beta2t * col_old + (1.0 - beta2t) * (col_sum / R)
    tl.store(col_out_ptr + cols, col_new, mask=cols < C)
    row_acc = tl.zeros([BLOCK_RS], dtype=tl.float32)
    for start in range(0, R, BLOCK_RS):
        offs = start + tl.arange(0, BLOCK_RS)
        row_acc += tl.load(row_ptr + offs, mask=offs < R, other=0.0)
    tl.store(row_mean_ptr, tl.sum(row_acc, axis=0) / R)


@triton.jit
def update_sq_kernel(grad_ptr, row_ptr, col_ptr, row_mean_ptr, sq_part_ptr, R, C,
                     NUM_PROGS: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK_C)
    c_factor = tl.rsqrt(tl.load(col_ptr + cols, mask=cols < C, other=1.0))
    row_mean = tl.load(row_mean_ptr)
    acc = tl.zeros([BLOCK_R, BLOCK_C], dtype=tl.float32)
    for rb in range(pid, tl.cdiv(R, BLOCK_R), NUM_PROGS):
        rows = rb * BLOCK_R + tl.arange(0, BLOCK_R)
        g, mask = _row_tile(grad_ptr, rows, R, C, BLOCK_C)
        u = _scaled_update(g, rows, R, row_ptr, row_mean, c_factor)
        acc += u * u
    tl.store(sq_part_ptr + pid, tl.sum(tl.sum(acc, axis=1), axis=0))


@triton.jit
def apply_update_kernel(param_ptr, grad_ptr, row_ptr, col_ptr, row_mean_ptr, sq_part_ptr, out_ptr,
                        R, C, lr, clip_threshold, n_parts,
                        NUM_PROGS: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr,
                        BLOCK_P: tl.constexpr):
    pid = tl.program_id(0)
    parts = tl.arange(0, BLOCK_P)
    total = tl.sum(tl.load(sq_part_ptr + parts, mask=parts < n_parts, other=0.0), axis=0)
    rms = tl.sqrt(total / (R * C))
    step_size = lr / tl.maximum(rms / clip_threshold, 1.0)
    cols = tl.arange(0, BLOCK_C)
    c_factor = tl.rsqrt(tl.load(col_ptr + cols, mask=cols < C, other=1.0))
    row_mean = tl.load(row_mean_ptr)
    for rb in range(pid, tl.cdiv(R, BLOCK_R), NUM_PROGS):
        rows = rb * BLOCK_R + tl.arange(0, BLOCK_R)
        g, mask = _row_tile(grad_ptr, rows, R, C, BLOCK_C)
        p, _ = _row_tile(param_ptr, rows, R, C, BLOCK_C)
        u = _scaled_update(g, rows, R, row_ptr, row_mean, c_factor)
        new_p = p - step_size * u
        tl.store(out_ptr + rows[:, None] * C + cols[None, :], new_p.to(out_ptr.dtype.element_ty), mask=mask)


def run(param, grad, exp_avg_sq_row, exp_avg_sq_col, step, lr):
    R, C = param.shape
    dev = param.device
    beta2t = 1.0 - step ** DECAY_RATE
    block_c = triton.next_power_of_2(C)
    block_r = max(1, UB_TILE_ELEMS // block_c)
    n_progs = min(NUM_VECTOR_CORES, triton.cdiv(R, block_r))
    launch = dict(NUM_PROGS=n_progs, BLOCK_R=block_r, BLOCK_C=block_c)

    row_new = torch.empty_like(exp_avg_sq_row)
    col_new = torch.empty_like(exp_avg_sq_col)
    col_part = torch.empty((n_progs, block_c), dtype=torch.float32, device=dev)
    row_mean = torch.empty(1, dtype=torch.float32, device=dev)
    sq_part = torch.empty(n_progs, dtype=torch.float32, device=dev)
    new_param = torch.empty_like(param)

    grid = (n_progs,)
    grad_sq_stats_kernel[grid](grad, exp_avg_sq_row, row_new, col_part, R, C, beta2t, EPS1, **launch)
    factor_stats_kernel[(1,)](col_part, exp_avg_sq_col, col_new, row_new, row_mean, R, C, beta2t, n_progs,
                              BLOCK_C=block_c, BLOCK_RS=1024)
    update_sq_kernel[grid](grad, row_new, col_new, row_mean, sq_part, R, C, **launch)
    apply_update_kernel[grid](param, grad, row_new, col_new, row_mean, sq_part, new_param,
                              R, C, lr, CLIP_THRESHOLD, n_progs, BLOCK_P=triton.next_power_of_2(n_progs), **launch)
    return new_param, row_new, col_new
