"""Megatron VocabParallelEmbedding forward on one TP rank: shard rows for in-range ids, zeros elsewhere."""
import torch
import triton
import triton.language as tl


@triton.jit
def _vocab_parallel_embed(ids, weight, out, vocab_range, H, BLOCK_H: tl.constexpr):
    tok = tl.program_id(0)
    vocab_start = tl.load(vocab_range)
    vocab_end = tl.load(vocab_range + 1)
    cols = tl.arange(0, BLOCK_H)
    cmask = cols < H
    tid = tl.load(ids + tok)
    if (tid >= vocab_start) & (tid < vocab_end):
        vals = tl.load(weight + (tid - vocab_start) * H + cols, mask=cmask, other=0.0)
    else:
        vals = tl.zeros((BLOCK_H,), dtype=out.dtype.element_ty)
    tl.store(out + tok * H + cols, vals, mask=cmask)


def run(ids: torch.Tensor, weight: torch.Tensor, vocab_range: torch.Tensor) -> torch.Tensor:
    T = ids.shape[0]
    H = weight.shape[1]
    out = torch.empty((T, H), dtype=weight.dtype, device=weight.device)
    _vocab_parallel_embed[(T,)](ids, weight, out, vocab_range, H, BLOCK_H=triton.next_power_of_2(H))
    return out
