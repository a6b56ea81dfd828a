"""Top-p mask on descending-sorted logits for triton-ascend: programs sized to the vector cores, two launches
(softmax denominator per row, then the nucleus mask from each token's exclusive probability prefix)."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40   # Atlas 800T A2 (910B3): 20 AI cores x 2 vector units
VOCAB_TILE = 4096       # fp32: 16 KB per live copy in the 192 KB unified buffer


@triton.jit
def _tile_probs(row_ptr, start, row_max, inv_denom, V, TILE: tl.constexpr):
    cols = start + tl.arange(0, TILE)
    mask = cols < V
    logit = tl.load(row_ptr + cols, mask=mask, other=float("-inf"))
    return cols, mask, logit, tl.exp(logit - row_max) * inv_denom


@triton.jit
def softmax_denominator_kernel(logits_ptr, denom_ptr, B, V, stride_row, TILE: tl.constexpr):
    for row in range(tl.program_id(0), B, tl.num_programs(0)):
        row_ptr = logits_ptr + row * stride_row
        row_max = tl.load(row_ptr)
        total = tl.zeros([TILE], dtype=tl.float32)
        for start in range(0, V, TILE):
            _, _, _, e = _tile_probs(row_ptr, start, row_max, 1.0, V, TILE)
            total += e
        tl.store(denom_ptr + row, tl.sum(total, axis=0))


@triton.jit
def top_p_mask_kernel(logits_ptr, denom_ptr, top_p_ptr, out_ptr, B, V, stride_row, num_tiles,
                      TILE: tl.constexpr):
    for row in range(tl.program_id(0), B, tl.num_programs(0)):
        row_ptr = logits_ptr + row * stride_row
        row_max = tl.load(row_ptr)
        inv_denom = 1.0 / tl.load(denom_ptr + row)
        top_p = tl.load(top_p_ptr + row)
        mass = 0.0
        for t in range(0, num_tiles):
            cols, mask, logit, p = _tile_probs(row_ptr, t * TILE, row_max, inv_denom, V, TILE)
            before = mass + tl.cumsum(p, axis=0) - p
            kept = tl.where(before < top_p, logit, float("-inf"))
            tl.store(out_ptr + row * stride_row + cols, kept, mask=mask)
            mass += tl.sum(p, axis=0)


def run(logits: torch.Tensor, top_p: torch.Tensor) -> torch.Tensor:
    B, V = logits.shape
    denom = torch.empty(B, dtype=torch.float32, device=logits.device)
    out = torch.empty_like(logits)
    num_tiles = triton.cdiv(V, VOCAB_TILE)
    grid = (min(NUM_VECTOR_CORES, B),)
    softmax_denominator_kernel[grid](logits, denom, B, V, logits.stride(0), TILE=VOCAB_TILE)
    top_p_mask_kernel[grid](logits, denom, top_p, out, B, V, logits.stride(0), num_tiles, TILE=VOCAB_TILE)
    return out
