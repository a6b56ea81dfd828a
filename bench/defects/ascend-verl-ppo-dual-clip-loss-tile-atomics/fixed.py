"""PPO dual-clip surrogate policy loss, token-mean over the batch token count, with its metrics."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40  # Atlas A2 (910B4) AIV cores
BLOCK = 1024


@triton.jit
def _ppo_policy_loss(old_lp, new_lp, advs, mask, out, N, inv_tokens,
                     clip_low, clip_high, clip_c, BLOCK: tl.constexpr, NPROG: tl.constexpr):
    pid = tl.program_id(0)
    lanes = tl.arange(0, BLOCK)
    acc_loss = tl.zeros([BLOCK], dtype=tl.float32)
    acc_clip = tl.zeros([BLOCK], dtype=tl.float32)
    acc_kl = tl.zeros([BLOCK], dtype=tl.float32)
    acc_low = tl.zeros([BLOCK], dtype=tl.float32)
    for tile in range(pid, tl.cdiv(N, BLOCK), NPROG):
        offs = tile * BLOCK + lanes
        ok = offs < N
        old = tl.load(old_lp + offs, mask=ok, other=0.0)
        new = tl.load(new_lp + offs, mask=ok, other=0.0)
        a = tl.load(advs + offs, mask=ok, other=0.0)
        m = tl.load(mask + offs, mask=ok, other=0).to(tl.float32)
        neg_kl = tl.minimum(tl.maximum(new - old, -20.0), 20.0)
        ratio = tl.exp(neg_kl)
        l1 = -a * ratio
        l2 = -a * tl.minimum(tl.maximum(ratio, 1.0 - clip_low), 1.0 + clip_high)
        c1 = tl.maximum(l1, l2)
        l3 = -a * clip_c
        neg = a < 0.0
        loss = tl.where(neg, tl.minimum(l3, c1), c1)
        acc_loss += loss * m
        acc_clip += tl.where(l2 > l1, m, 0.0)
        acc_kl += -neg_kl * m
        acc_low += tl.where(neg & (c1 > l3), m, 0.0)
    tl.atomic_add(out + 0, tl.sum(acc_loss, axis=0) * inv_tokens)
    tl.atomic_add(out + 1, tl.sum(acc_clip, axis=0) * inv_tokens)
    tl.atomic_add(out + 2, tl.sum(acc_kl, axis=0) * inv_tokens)
    tl.atomic_add(out + 3, tl.sum(acc_low, axis=0) * inv_tokens)


def run(old_log_prob, log_prob, advantages, mask, num_tokens,
        clip_low=0.2, clip_high=0.28, clip_ratio_c=3.0):
    N = old_log_prob.numel()
    out = torch.zeros(4, device=old_log_prob.device, dtype=torch.float32)
    nprog = max(1, min(NUM_VECTOR_CORES, triton.cdiv(N, BLOCK)))
    _ppo_policy_loss[(nprog,)](old_log_prob, log_prob, advantages, mask, out, N, 1.0 / num_tokens,
                               clip_low, clip_high, clip_ratio_c, BLOCK=BLOCK, NPROG=nprog)
    return out
