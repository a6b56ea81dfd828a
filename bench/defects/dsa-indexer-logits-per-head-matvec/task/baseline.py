"""DSA lightning-indexer logits: per (token, key block), all index heads in one tl.dot, relu, weighted head sum."""
import torch
import triton
import triton.language as tl


@triton.jit
def _weighted_relu_head_sum(scores, w_heads):
    return tl.sum(tl.maximum(scores, 0.0) * w_heads[:, None], axis=0)


@triton.jit
def indexer_logits_kernel(q_ptr, k_ptr, w_ptr, out_ptr, S, stride_qt, stride_qh, stride_ks, stride_wt,
                          stride_ot, H: tl.constexpr, D: tl.constexpr, BLOCK_S: tl.constexpr):
    t = tl.program_id(0)
    pid_s = tl.program_id(1)
    offs_h = tl.arange(0, H)
    offs_d = tl.arange(0, D)
    offs_s = pid_s * BLOCK_S + tl.arange(0, BLOCK_S)
    mask_s = offs_s < S
    q = tl.load(q_ptr + t * stride_qt + offs_h[:, None] * stride_qh + offs_d[None, :])
    k = tl.load(k_ptr + offs_s[:, None] * stride_ks + offs_d[None, :], mask=mask_s[:, None], other=0.0)
    w_heads = tl.load(w_ptr + t * stride_wt + offs_h)
    scores = tl.dot(q, tl.trans(k))
    logits = _weighted_relu_head_sum(scores, w_heads)
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
