"""MoE unpermute (weighted combine) for triton-ascend: one program per vector core striding over tokens,
each hidden chunk of a token gathering its top-k expert rows."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _expert_row_chunk(permuted_ptr, row_id_map_ptr, probs_ptr, slot, hidden, cols, cmask):
    src = tl.load(row_id_map_ptr + slot)
    w = tl.load(probs_ptr + slot)
    x = tl.load(permuted_ptr + src * hidden + cols, mask=cmask, other=0.0)
    return x.to(tl.float32) * w


@triton.jit
def moe_unpermute_kernel(permuted_ptr, row_id_map_ptr, probs_ptr, out_ptr, n_tokens, hidden,
                         TOPK: tl.constexpr, NUM_CORES: tl.constexpr, BLOCK_H: tl.constexpr):
    pid = tl.program_id(0)
    for t in range(pid, n_tokens, NUM_CORES):
        for h in range(0, hidden, BLOCK_H):
            cols = h + tl.arange(0, BLOCK_H)
            cmask = cols < hidden
            acc = tl.zeros([BLOCK_H], dtype=tl.float32)
            for k in range(TOPK):
                acc += _expert_row_chunk(permuted_ptr, row_id_map_ptr, probs_ptr, t * TOPK + k, hidden, cols, cmask)
            tl.store(out_ptr + t * hidden + cols, acc.to(out_ptr.dtype.element_ty), mask=cmask)


def run(permuted: torch.Tensor, row_id_map: torch.Tensor, probs: torch.Tensor) -> torch.Tensor:
    T, K = row_id_map.shape
    H = permuted.shape[1]
    out = torch.empty((T, H), dtype=permuted.dtype, device=permuted.device)
    block_h = min(4096, triton.next_power_of_2(H))
    grid = (min(T, NUM_VECTOR_CORES),)
    moe_unpermute_kernel[grid](permuted, row_id_map, probs, out, T, H,
                               TOPK=K, NUM_CORES=NUM_VECTOR_CORES, BLOCK_H=block_h)
    return out
