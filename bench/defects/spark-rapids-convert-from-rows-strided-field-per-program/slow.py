"""JCUDF rows -> columns: copy each 4-byte field of the packed rows into its own contiguous column."""
import torch
import triton
import triton.language as tl

BLOCK = 1024
ROW_WORDS = 18  # 16 four-byte fields + 2 validity bytes, padded to 72 bytes


@triton.jit
def _rows_to_columns(rows, cols, n_rows, ROW_WORDS: tl.constexpr, BLOCK: tl.constexpr):
    r = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    c = tl.program_id(1)
    ok = r < n_rows
    v = tl.load(rows + r * ROW_WORDS + c, mask=ok)
    tl.store(cols + c * n_rows + r, v, mask=ok)


def run(rows: torch.Tensor, num_columns: int) -> torch.Tensor:
    n = rows.shape[0]
    cols = torch.empty(num_columns, n, device=rows.device, dtype=rows.dtype)
    grid = (triton.cdiv(n, BLOCK), num_columns)
    _rows_to_columns[grid](rows, cols, n, ROW_WORDS=ROW_WORDS, BLOCK=BLOCK, num_warps=4)
    return cols
