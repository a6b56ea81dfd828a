"""DSA lightning-indexer logits: per (token, key block), head by head: q_h . k, relu, weighted accumulate."""
import torch
import triton
import triton.language as tl


@triton.jit
def _head_scores(q_row_ptr, k, offs_d):
    q_h = tl.load(q_row_ptr + offs_d).to(tl.float32)
    return tl.sum(k * q_h[None, :], axis=1)


@triton.jit
def indexer_logits_kernel(q_ptr, k_ptr, w_ptr, out_ptr, S, stride_qt, stride_qh, stride_ks, stride_wt,
                          stride_ot, H: tl.constexpr, D: tl.constexpr, BLOCK_S: tl.constexpr):
    t = tl.program_id(0)
    pid_s = tl.program_id(1)
    offs_d = tl.arange(0, D)
    offs_s = pid_s * BLOCK_S + tl.arange(0, BLOCK_S)
    mask_s = offs_s < S
    k = tl.load(k_ptr + offs_s[:, None] * stride_ks + offs_d[None, :], mask=mask_s[:, None], other=0.0)
    k = k.to(tl.float32)
    logits = tl.zeros([BLOCK_S], dtype=tl.float32)
    for h in range(H):
        scores = _head_scores(q_ptr + t * stride_qt + h * stride_qh, k, offs_d)
        logits += tl.load(w_ptr + t * stride_wt + h) * tl.maximum(scores, 0.0)
    tl.store(out_ptr + t * stride_ot + offs_s, logits, mask=mask_s)


def run(q: torch.Tensor, k: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    T, H, D = q.shape
    S = k.shape[0]
    out = torch.empty((T, S), device=q.device, dtype=torch.float32)
    BLOCK_S = 64
    grid = (T, triton.cdiv(S, BLOCK_S))
    indexer_logits_kernel[grid](q, k, w, out, S, q.stride(0), q.stride(1), k.stride(0), w.stride(0),
                                out.stride(0), H=H, D=D, BLOCK_S=BLOCK_S, num_warps=4, num_stages=2)
    return out
