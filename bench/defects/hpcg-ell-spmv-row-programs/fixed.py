"""ELL SpMV (HPCG 27-point operator): each program owns a block of rows; the slot-major arrays are read
as [rows, slots] tiles with the rows on the contiguous axis."""
import torch
import triton
import triton.language as tl


@triton.jit
def _gather_x(x_ptr, cols, live):
    ok = live & (cols >= 0)
    return tl.load(x_ptr + tl.where(ok, cols, 0), mask=ok, other=0.0)


@triton.jit
def ell_spmv_kernel(val_ptr, col_ptr, x_ptr, y_ptr, n_rows, width,
                    BLOCK_R: tl.constexpr, BLOCK_W: tl.constexpr):
    rb = tl.program_id(0)
    rows = rb * BLOCK_R + tl.arange(0, BLOCK_R)
    slots = tl.arange(0, BLOCK_W)
    live = (rows[:, None] < n_rows) & (slots[None, :] < width)
    offs = slots[None, :] * n_rows + rows[:, None]
    vals = tl.load(val_ptr + offs, mask=live, other=0.0)
    cols = tl.load(col_ptr + offs, mask=live, other=-1)
    xv = _gather_x(x_ptr, cols, live)
    tl.store(y_ptr + rows, tl.sum(vals * xv, axis=1), mask=rows < n_rows)


def run(ell_val: torch.Tensor, ell_col: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    width, n_rows = ell_val.shape
    y = torch.empty(n_rows, device=x.device, dtype=x.dtype)
    block_w = triton.next_power_of_2(width)
    block_r = 128
    launch = {"num_warps": 4}
    ell_spmv_kernel[(triton.cdiv(n_rows, block_r),)](ell_val, ell_col, x, y, n_rows, width,
                                                     BLOCK_R=block_r, BLOCK_W=block_w, **launch)
    return y
