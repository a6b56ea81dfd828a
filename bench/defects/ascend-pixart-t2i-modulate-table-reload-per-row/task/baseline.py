"""PixArt-alpha adaLN-single: LayerNorm(x) * (1 + table[1] + t[b, 1]) + table[0] + t[b, 0], per token of sample b."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40
EPS = 1e-6


@triton.jit
def _t2i_modulate_ln(x_ptr, table_ptr, t_ptr, out_ptr, N, D, rows_per_prog, eps, BLOCK_D: tl.constexpr):
    b = tl.program_id(0)
    p = tl.program_id(1)
    cols = tl.arange(0, BLOCK_D)
    cmask = cols < D
    t_row = t_ptr + b * 6 * D
    shift = tl.load(table_ptr + cols, mask=cmask, other=0.0).to(tl.float32) \
        + tl.load(t_row + cols, mask=cmask, other=0.0).to(tl.float32)
    scale = 1.0 + tl.load(table_ptr + D + cols, mask=cmask, other=0.0).to(tl.float32) \
        + tl.load(t_row + D + cols, mask=cmask, other=0.0).to(tl.float32)
    row0 = p * rows_per_prog
    row1 = tl.minimum(row0 + rows_per_prog, N)
    for r in range(row0, row1):
        base = (b * N + r) * D
        x = tl.load(x_ptr + base + cols, mask=cmask, other=0.0).to(tl.float32)
        mean = tl.sum(x, axis=0) / D
        var = tl.sum(x * x, axis=0) / D - mean * mean
        rstd = 1.0 / tl.sqrt(var + eps)
        y = (x - mean) * rstd * scale + shift
        tl.store(out_ptr + base + cols, y.to(out_ptr.dtype.element_ty), mask=cmask)


def run(x: torch.Tensor, scale_shift_table: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
    B, N, D = x.shape
    out = torch.empty_like(x)
    progs = max(1, NUM_VECTOR_CORES // B)
    rows_per_prog = triton.cdiv(N, progs)
    _t2i_modulate_ln[(B, progs)](x, scale_shift_table, t, out, N, D, rows_per_prog, EPS,
                                 BLOCK_D=triton.next_power_of_2(D))
    return out
