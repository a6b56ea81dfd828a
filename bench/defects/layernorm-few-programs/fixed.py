"""LayerNorm where each program normalises 4 consecutive rows: enough programs for every SM."""
import torch
import triton
import triton.language as tl


@triton.jit
def layernorm_kernel(x_ptr, w_ptr, b_ptr, out_ptr, M, N, stride_row, eps,
                     ROWS_PER_PROGRAM: tl.constexpr, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    w = tl.load(w_ptr + cols, mask=mask).to(tl.float32)
    b = tl.load(b_ptr + cols, mask=mask).to(tl.float32)
    first = tl.program_id(0) * ROWS_PER_PROGRAM
    for r in range(ROWS_PER_PROGRAM):
        row = first + r
        if row < M:
            x = tl.load(x_ptr + row * stride_row + cols, mask=mask, other=0.0).to(tl.float32)
            mean = tl.sum(x, axis=0) / N
            diff = tl.where(mask, x - mean, 0.0)
            rstd = 1.0 / tl.sqrt(tl.sum(diff * diff, axis=0) / N + eps)
            y = diff * rstd * w + b
            tl.store(out_ptr + row * stride_row + cols, y.to(out_ptr.dtype.element_ty), mask=mask)


def run(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty_like(x)
    rows_per_program = 4  # thousands of programs: every SM gets several
    grid = (triton.cdiv(M, rows_per_program),)
    layernorm_kernel[grid](x, w, b, out, M, N, x.stride(0), 1e-5,
                           ROWS_PER_PROGRAM=rows_per_program, BLOCK=triton.next_power_of_2(N))
    return out
