"""MoE router: softmax over experts then top-k, one program per token."""
import torch
import triton
import triton.language as tl


@triton.jit
def topk_softmax_kernel(logits_ptr, w_ptr, id_ptr, E, stride_row, K: tl.constexpr,
                        BLOCK: tl.constexpr, BLOCK_K: tl.constexpr):
    tok = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    slots = tl.arange(0, BLOCK_K)
    x = tl.load(logits_ptr + tok * stride_row + cols, mask=cols < E, other=-float("inf"))
    e = tl.exp(x.to(tl.float32) - tl.max(x, axis=0))
    probs = e / tl.sum(e, axis=0)
    weights = tl.zeros((BLOCK_K,), dtype=tl.float32)
    ids = tl.zeros((BLOCK_K,), dtype=tl.int64)
    for i in range(K):
        best = tl.argmax(probs, axis=0)
        weights = tl.where(slots == i, tl.max(probs, axis=0), weights)
        ids = tl.where(slots == i, best.to(tl.int64), ids)
        probs = tl.where(cols == best, -1.0, probs)
    total = tl.sum(weights, axis=0)
    tl.store(w_ptr + tok * K + slots, weights / total, mask=slots < K)
    tl.store(id_ptr + tok * K + slots, ids, mask=slots < K)


def run(logits: torch.Tensor, k: int) -> tuple[torch.Tensor, torch.Tensor]:
    T, E = logits.shape
    weights = torch.empty((T, k), dtype=torch.float32, device=logits.device)
    ids = torch.empty((T, k), dtype=torch.int64, device=logits.device)
    topk_softmax_kernel[(T,)](logits, weights, ids, E, logits.stride(0), K=k,
                              BLOCK=triton.next_power_of_2(E), BLOCK_K=triton.next_power_of_2(k))
    return weights, ids
