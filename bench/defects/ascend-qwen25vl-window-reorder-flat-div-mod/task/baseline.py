"""Qwen2.5-VL window reorder: copy each merge unit (4 tokens x C) to its place in window order."""
import torch
import triton
import triton.language as tl

VECTOR_CORES = 40


@triton.jit
def _window_reorder(hidden, window_index, out, n_units, row_len, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BLOCK)
    for unit in range(pid, n_units, nprog):
        src = tl.load(window_index + unit)
        src_row = hidden + src * row_len
        dst_row = out + unit * row_len
        for start in range(0, row_len, BLOCK):
            mask = start + cols < row_len
            tl.store(dst_row + start + cols, tl.load(src_row + start + cols, mask=mask), mask=mask)


def run(hidden: torch.Tensor, window_index: torch.Tensor) -> torch.Tensor:
    S, C = hidden.shape
    n_units = window_index.shape[0]
    row_len = (S // n_units) * C
    out = torch.empty_like(hidden)
    grid = (min(VECTOR_CORES, n_units),)
    _window_reorder[grid](hidden, window_index, out, n_units, row_len, BLOCK=4096)
    return out
