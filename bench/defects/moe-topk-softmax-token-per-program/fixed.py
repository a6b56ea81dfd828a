"""MoE router: softmax over experts then top-k, 64 tokens per program as one [tokens, experts] tile."""
import torch
import triton
import triton.language as tl


@triton.jit
def topk_softmax_kernel(logits_ptr, w_ptr, id_ptr, T, E, stride_row, K: tl.constexpr,
                        BLOCK_T: tl.constexpr, BLOCK_E: tl.constexpr, BLOCK_K: tl.constexpr):
    toks = tl.program_id(0) * BLOCK_T + tl.arange(0, BLOCK_T)
    cols = tl.arange(0, BLOCK_E)
    slots = tl.arange(0, BLOCK_K)
    tok_ok = toks < T
    col_ok = cols < E
    x = tl.load(logits_ptr + toks[:, None] * stride_row + cols[None, :],
                mask=tok_ok[:, None] & col_ok[None, :], other=0.0).to(tl.float32)
    x = tl.where(col_ok[None, :], x, -float("inf"))
    e = tl.exp(x - tl.max(x, axis=1)[:, None])
    probs = e / tl.sum(e, axis=1)[:, None]
    weights = tl.zeros((BLOCK_T, BLOCK_K), dtype=tl.float32)
    ids = tl.zeros((BLOCK_T, BLOCK_K), dtype=tl.int64)
    for i in range(K):
        best = tl.argmax(probs, axis=1)
        top = tl.max(probs, axis=1)
        weights = tl.where(slots[None, :] == i, top[:, None], weights)
        ids = tl.where(slots[None, :] == i, best[:, None].to(tl.int64), ids)
        probs = tl.where(cols[None, :] == best[:, None], -1.0, probs)
    total = tl.sum(weights, axis=1)
    out_mask = tok_ok[:, None] & (slots[None, :] < K)
    out_offs = toks[:, None] * K + slots[None, :]
    tl.store(w_ptr + out_offs, weights / total[:, None], mask=out_mask)
    tl.store(id_ptr + out_offs, ids, mask=out_mask)


def run(logits: torch.Tensor, k: int) -> tuple[torch.Tensor, torch.Tensor]:
    T, E = logits.shape
    weights = torch.empty((T, k), dtype=torch.float32, device=logits.device)
    ids = torch.empty((T, k), dtype=torch.int64, device=logits.device)
    block_t = 64
    topk_softmax_kernel[(triton.cdiv(T, block_t),)](
        logits, weights, ids, T, E, logits.stride(0), K=k, BLOCK_T=block_t,
        BLOCK_E=triton.next_power_of_2(E), BLOCK_K=triton.next_power_of_2(k))
    return weights, ids
