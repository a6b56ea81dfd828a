"""Clipped value-function loss (PPO critic), token-mean over the batch token count, and its clip fraction."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40  # Atlas A2 (910B4) AIV cores
BLOCK = 2048


@triton.jit
def _value_loss(vpreds, values, returns, mask, out, N, inv_tokens, cliprange,
                BLOCK: tl.constexpr, NPROG: tl.constexpr):
    pid = tl.program_id(0)
    lanes = tl.arange(0, BLOCK)
    acc_loss = tl.zeros([BLOCK], dtype=tl.float32)
    acc_clip = tl.zeros([BLOCK], dtype=tl.float32)
    for tile in range(pid, tl.cdiv(N, BLOCK), NPROG):
        offs = tile * BLOCK + lanes
        ok = offs < N
        v = tl.load(vpreds + offs, mask=ok, other=0.0)
        old = tl.load(values + offs, mask=ok, other=0.0)
        ret = tl.load(returns + offs, mask=ok, other=0.0)
        m = tl.load(mask + offs, mask=ok, other=0).to(tl.float32)
        v_clipped = tl.minimum(tl.maximum(v, old - cliprange), old + cliprange)
        l1 = (v - ret) * (v - ret)
        l2 = (v_clipped - ret) * (v_clipped - ret)
        acc_loss += tl.maximum(l1, l2) * m
        acc_clip += tl.where(l2 > l1, m, 0.0)
    tl.atomic_add(out + 0, 0.5 * tl.sum(acc_loss, axis=0) * inv_tokens)
    tl.atomic_add(out + 1, tl.sum(acc_clip, axis=0) * inv_tokens)


def run(vpreds, values, returns, mask, num_tokens, cliprange_value=0.5):
    N = vpreds.numel()
    out = torch.zeros(2, device=vpreds.device, dtype=torch.float32)
    nprog = max(1, min(NUM_VECTOR_CORES, triton.cdiv(N, BLOCK)))
    _value_loss[(nprog,)](vpreds, values, returns, mask, out, N, 1.0 / num_tokens, cliprange_value,
                          BLOCK=BLOCK, NPROG=nprog)
    return out
