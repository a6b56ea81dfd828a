"""Qwen2.5-VL window reorder: copy each merge unit (4 tokens x C) to its place in window order."""
import torch
import triton
import triton.language as tl

VECTOR_CORES = 40


@triton.jit
def _window_reorder(hidden, window_index, out, n_elems, row_len, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    lanes = tl.arange(0, BLOCK)
    for block in range(pid, tl.cdiv(n_elems, BLOCK), nprog):
        offs = block * BLOCK + lanes
        mask = offs < n_elems
        unit = offs // row_len
        col = offs % row_len
        src = tl.load(window_index + unit, mask=mask, other=0)
        tl.store(out + offs, tl.load(hidden + src * row_len + col, mask=mask), mask=mask)


def run(hidden: torch.Tensor, window_index: torch.Tensor) -> torch.Tensor:
    S, C = hidden.shape
    n_units = window_index.shape[0]
    row_len = (S // n_units) * C
    out = torch.empty_like(hidden)
    n_elems = S * C
    grid = (min(VECTOR_CORES, triton.cdiv(n_elems, 4096)),)
    _window_reorder[grid](hidden, window_index, out, n_elems, row_len, BLOCK=4096)
    return out
