"""zstd HIST_count per block: a 256-bin byte histogram for every block of the input."""
import torch
import triton
import triton.language as tl

BLOCK = 4096


@triton.jit
def _hist_count(src, hist, n, block_size, BLOCK: tl.constexpr):
    blk = tl.program_id(0)
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    pos = blk * block_size + offs
    ok = (offs < block_size) & (pos < n)
    sym = tl.load(src + pos, mask=ok, other=0).to(tl.int32)
    ones = tl.full([BLOCK], 1, tl.int32)
    tl.atomic_add(hist + blk * 256 + sym, ones, mask=ok)


def run(src: torch.Tensor, block_size: int) -> torch.Tensor:
    n = src.shape[0]
    n_blocks = triton.cdiv(n, block_size)
    hist = torch.zeros((n_blocks, 256), device=src.device, dtype=torch.int32)
    grid = (n_blocks, triton.cdiv(block_size, BLOCK))
    _hist_count[grid](src, hist, n, block_size, BLOCK=BLOCK, num_warps=4)
    return hist
