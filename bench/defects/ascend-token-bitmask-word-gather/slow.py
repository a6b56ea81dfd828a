"""Token bitmask for structured output (xgrammar apply_token_bitmask) in triton-ascend: tokens whose
grammar bit is clear get -inf logits."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 48


@triton.jit
def _allowed_bits(mask_ptr, row, n_words, start, BLOCK: tl.constexpr):
    cols = start + tl.arange(0, BLOCK)
    w = cols // 32
    words = tl.load(mask_ptr + row * n_words + w, mask=w < n_words, other=0)
    return (words >> (cols % 32)) & 1


@triton.jit
def token_bitmask_kernel(logits_ptr, mask_ptr, out_ptr, vocab, n_words, n_tiles, tiles_per_row,
                         BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    for tile in range(pid, n_tiles, tl.num_programs(0)):
        row = tile // tiles_per_row
        start = (tile - row * tiles_per_row) * BLOCK
        cols = start + tl.arange(0, BLOCK)
        in_row = cols < vocab
        x = tl.load(logits_ptr + row * vocab + cols, mask=in_row, other=0.0)
        keep = _allowed_bits(mask_ptr, row, n_words, start, BLOCK).to(tl.float32)
        y = tl.where(keep > 0.0, x, float("-inf"))
        tl.store(out_ptr + row * vocab + cols, y, mask=in_row)


def run(logits: torch.Tensor, bitmask: torch.Tensor) -> torch.Tensor:
    B, V = logits.shape
    out = torch.empty_like(logits)
    block = 8192
    tiles_per_row = triton.cdiv(V, block)
    n_tiles = B * tiles_per_row
    grid = (min(NUM_VECTOR_CORES, n_tiles),)
    token_bitmask_kernel[grid](logits, bitmask, out, V, bitmask.shape[1], n_tiles, tiles_per_row, BLOCK=block)
    return out
