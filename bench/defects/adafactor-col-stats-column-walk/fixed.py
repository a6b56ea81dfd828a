"""Adafactor's factored second moment: exp_avg_sq_row and exp_avg_sq_col updated from grad^2 + eps1.
The column means walk [BLOCK_R, BLOCK_C] tiles whose rows are contiguous runs of BLOCK_C columns."""
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
def col_mean_kernel(g_ptr, col_ptr, out_ptr, R, C, beta2t, eps1, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_C + tl.arange(0, BLOCK_C)
    cmask = cols < C
    acc = tl.zeros([BLOCK_R, BLOCK_C], dtype=tl.float32)
    for r0 in range(0, R, BLOCK_R):
        rows = r0 + tl.arange(0, BLOCK_R)
        m = (rows[:, None] < R) & cmask[None, :]
        g = tl.load(g_ptr + rows[:, None] * C + cols[None, :], mask=m, other=0.0)
        acc += tl.where(m, _sq(g, eps1), 0.0)
    mean = tl.sum(acc, axis=0) / R
    old = tl.load(col_ptr + cols, mask=cmask)
    tl.store(out_ptr + cols, old * beta2t + mean * (1.0 - beta2t), mask=cmask)


class FactoredSecondMoment:
    """The factored branch of Adafactor.step for one [R, C] parameter."""

    BLOCK = 1024
    TILE_R, TILE_C = 128, 16

    def __call__(self, grad, exp_avg_sq_row, exp_avg_sq_col, beta2t, eps1):
        R, C = grad.shape
        new_row = torch.empty_like(exp_avg_sq_row)
        new_col = torch.empty_like(exp_avg_sq_col)
        row_mean_kernel[(R,)](grad, exp_avg_sq_row, new_row, C, beta2t, eps1, BLOCK_C=self.BLOCK, num_warps=4)
        col_mean_kernel[(triton.cdiv(C, self.TILE_C),)](grad, exp_avg_sq_col, new_col, R, C, beta2t, eps1,
                                                        BLOCK_R=self.TILE_R, BLOCK_C=self.TILE_C, num_warps=4)
        return new_row, new_col


_step = FactoredSecondMoment()


def run(grad, exp_avg_sq_row, exp_avg_sq_col, beta2t, eps1) -> tuple:
    return _step(grad, exp_avg_sq_row, exp_avg_sq_col, beta2t, eps1)
