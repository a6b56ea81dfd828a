"""DIN attention pooling: masked softmax over the behaviour scores, weighted sum of the behaviour embeddings."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40  # Atlas A2 (910B4): 40 AI vector cores
BLOCK_L = 64


@triton.jit
def _din_attention_pool(scores, keys, lengths, out, B, D, stride_sb, stride_kb, stride_kl, stride_ob,
                        BLOCK_L: tl.constexpr, BLOCK_D: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    rows = tl.arange(0, BLOCK_L)
    cols = tl.arange(0, BLOCK_D)
    col_ok = cols < D
    for b in range(pid, B, nprog):
        n = tl.load(lengths + b)
        run_max = -float("inf")
        denom = 0.0
        acc = tl.zeros((BLOCK_L, BLOCK_D), dtype=tl.float32)
        for l0 in range(0, n, BLOCK_L):
            pos = l0 + rows
            live = pos < n
            s = tl.load(scores + b * stride_sb + pos, mask=live, other=-float("inf"))
            k = tl.load(keys + b * stride_kb + pos[:, None] * stride_kl + cols[None, :],
                        mask=live[:, None] & col_ok[None, :], other=0.0).to(tl.float32)
            new_max = tl.maximum(run_max, tl.max(s, axis=0))
            alpha = tl.exp(run_max - new_max)
            p = tl.exp(s - new_max)
            denom = denom * alpha + tl.sum(p, axis=0)
            acc = acc * alpha + p[:, None] * k
            run_max = new_max
        pooled = tl.sum(acc, axis=0) / denom
        tl.store(out + b * stride_ob + cols, pooled.to(out.dtype.element_ty), mask=col_ok)


def run(scores: torch.Tensor, keys: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    B, L, D = keys.shape
    out = torch.empty((B, D), device=keys.device, dtype=keys.dtype)
    grid = (min(B, NUM_VECTOR_CORES),)
    _din_attention_pool[grid](scores, keys, lengths, out, B, D, scores.stride(0), keys.stride(0),
                              keys.stride(1), out.stride(0), BLOCK_L=BLOCK_L,
                              BLOCK_D=triton.next_power_of_2(D))
    return out
