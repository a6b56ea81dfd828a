"""JCUDF rows -> columns: copy each 4-byte field of the packed rows into its own contiguous column."""
import torch
import triton
import triton.language as tl

BLOCK = 128
ROW_WORDS = 18  # 16 four-byte fields + 2 validity bytes, padded to 72 bytes


@triton.jit
def _rows_to_columns(rows, cols, n_rows, ROW_WORDS: tl.constexpr, NUM_COLS: tl.constexpr, BLOCK: tl.constexpr):
    r = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    c = tl.arange(0, NUM_COLS)
    ok = (r < n_rows)[:, None]
    v = tl.load(rows + r[:, None] * ROW_WORDS + c[None, :], mask=ok)
    tl.store(cols + c[None, :] * n_rows + r[:, None], v, mask=ok)


def run(rows: torch.Tensor, num_columns: int) -> torch.Tensor:
    n = rows.shape[0]
    cols = torch.empty(num_columns, n, device=rows.device, dtype=rows.dtype)
    grid = (triton.cdiv(n, BLOCK),)
    _rows_to_columns[grid](rows, cols, n, ROW_WORDS=ROW_WORDS, NUM_COLS=num_columns, BLOCK=BLOCK, num_warps=4)
    return cols
