"""Adafactor's factored second moment: exp_avg_sq_row and exp_avg_sq_col updated from grad^2 + eps1,
one kernel for the row means and one for the column means."""
import torch
import triton
import triton.language as tl


@triton.jit
def _sq(g, eps1):
    return g * g + eps1


@triton.jit
def row_mean_kernel(g_ptr, row_ptr, out_ptr, C, beta2t, eps1, BLOCK_C: tl.constexpr):
    r = tl.program_id(0)
    acc = tl.zeros([BLOCK_C], dtype=tl.float32)
    for c0 in range(0, C, BLOCK_C):
        cols = c0 + tl.arange(0, BLOCK_C)
        g = tl.load(g_ptr + r * C + cols, mask=cols < C, other=0.0)
        acc += tl.where(cols < C, _sq(g, eps1), 0.0)
    mean = tl.sum(acc, axis=0) / C
    old = tl.load(row_ptr + r)
    tl.store(out_ptr + r, old * beta2t + mean * (1.0 - beta2t))


@triton.jit
def col_mean_kernel(g_ptr, col_ptr, out_ptr, R, C, beta2t, eps1, BLOCK_R: tl.constexpr):
    c = tl.program_id(0)
    acc = tl.zeros([BLOCK_R], dtype=tl.float32)
    for r0 in range(0, R, BLOCK_R):
        rows = r0 + tl.arange(0, BLOCK_R)
        g = tl.load(g_ptr + rows * C + c, mask=rows < R, other=0.0)
        acc += tl.where(rows < R, _sq(g, eps1), 0.0)
    mean = tl.sum(acc, axis=0) / R
    old = tl.load(col_ptr + c)
    tl.store(out_ptr + c, old * beta2t + mean * (1.0 - beta2t))


class FactoredSecondMoment:
    """The factored branch of Adafactor.step for one [R, C] parameter."""

    BLOCK = 1024

    def __call__(self, grad, exp_avg_sq_row, exp_avg_sq_col, beta2t, eps1):
        R, C = grad.shape
        new_row = torch.empty_like(exp_avg_sq_row)
        new_col = torch.empty_like(exp_avg_sq_col)
        row_mean_kernel[(R,)](grad, exp_avg_sq_row, new_row, C, beta2t, eps1, BLOCK_C=self.BLOCK, num_warps=4)
        col_mean_kernel[(C,)](grad, exp_avg_sq_col, new_col, R, C, beta2t, eps1, BLOCK_R=self.BLOCK, num_warps=4)
        return new_row, new_col


_step = FactoredSecondMoment()


def run(grad, exp_avg_sq_row, exp_avg_sq_col, beta2t, eps1) -> tuple:
    return _step(grad, exp_avg_sq_row, exp_avg_sq_col, beta2t, eps1)
