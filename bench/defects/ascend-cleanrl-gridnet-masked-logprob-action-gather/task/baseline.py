"""GridNet masked multi-categorical log-prob and entropy (CleanRL ppo_gridnet, Gym-µRTS action plane)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
NLOGITS = tl.constexpr(78)   # sum(nvec) = 6 + 4 + 4 + 4 + 4 + 7 + 49
NMASK = tl.constexpr(79)     # source-unit mask + one per logit
NHEADS = tl.constexpr(7)
MASK_VALUE = tl.constexpr(-1e8)


@triton.jit
def _masked_categorical(logits, masks, cells, cmask, a_tile, acol,
                        H: tl.constexpr, OFF: tl.constexpr, N: tl.constexpr, NP: tl.constexpr):
    """log-prob of the taken action and entropy of one action component, per cell."""
    j = tl.arange(0, NP)[None, :]
    m2 = cmask[:, None] & (j < N)
    x = tl.load(logits + cells[:, None] * NLOGITS + OFF + j, mask=m2, other=0.0)
    keep = tl.load(masks + cells[:, None] * NMASK + 1 + OFF + j, mask=m2, other=0).to(tl.float32)
    x = tl.where(keep > 0.5, x, MASK_VALUE)
    x = tl.where(j.to(tl.float32) < N, x, -float("inf"))     # padding lanes stay out of the softmax
    mx = tl.max(x, axis=1)
    e = tl.exp(x - mx[:, None])
    s = tl.sum(e, axis=1)
    lse = mx + tl.log(s)
    logp = x - lse[:, None]
    p = e / s[:, None]
    ent = -tl.sum(tl.where(keep > 0.5, p * logp, 0.0), axis=1)
    a = tl.sum(tl.where(acol.to(tl.float32) == H, a_tile, 0.0), axis=1)
    lp = tl.sum(tl.where(j.to(tl.float32) == a[:, None], logp, 0.0), axis=1)
    return lp, ent


@triton.jit
def _gridnet_logprob_entropy(logits, masks, actions, lp_out, ent_out, B, HW, BR: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    rows = tl.arange(0, BR)
    acol = tl.arange(0, 8)[None, :]
    for b in range(pid, B, nprog):
        lp_acc = tl.zeros([BR], dtype=tl.float32)
        ent_acc = tl.zeros([BR], dtype=tl.float32)
        for c0 in range(0, HW, BR):
            cells = b * HW + c0 + rows
            cmask = (c0 + rows) < HW
            a_tile = tl.load(actions + cells[:, None] * NHEADS + acol,
                             mask=cmask[:, None] & (acol < NHEADS), other=0.0)
            lp, ent = _masked_categorical(logits, masks, cells, cmask, a_tile, acol, 0, 0, 6, 8)
            lp_acc += lp
            ent_acc += ent
            lp, ent = _masked_categorical(logits, masks, cells, cmask, a_tile, acol, 1, 6, 4, 4)
            lp_acc += lp
            ent_acc += ent
            lp, ent = _masked_categorical(logits, masks, cells, cmask, a_tile, acol, 2, 10, 4, 4)
            lp_acc += lp
            ent_acc += ent
            lp, ent = _masked_categorical(logits, masks, cells, cmask, a_tile, acol, 3, 14, 4, 4)
            lp_acc += lp
            ent_acc += ent
            lp, ent = _masked_categorical(logits, masks, cells, cmask, a_tile, acol, 4, 18, 4, 4)
            lp_acc += lp
            ent_acc += ent
            lp, ent = _masked_categorical(logits, masks, cells, cmask, a_tile, acol, 5, 22, 7, 8)
            lp_acc += lp
            ent_acc += ent
            lp, ent = _masked_categorical(logits, masks, cells, cmask, a_tile, acol, 6, 29, 49, 64)
            lp_acc += lp
            ent_acc += ent
        tl.store(lp_out + b, tl.sum(lp_acc, axis=0))
        tl.store(ent_out + b, tl.sum(ent_acc, axis=0))


def run(logits: torch.Tensor, masks: torch.Tensor, actions: torch.Tensor) -> tuple:
    B, HW, _ = logits.shape
    lp = torch.empty((B,), device=logits.device, dtype=logits.dtype)
    ent = torch.empty((B,), device=logits.device, dtype=logits.dtype)
    BR = 64
    grid = (min(_VECTOR_CORES, B),)
    _gridnet_logprob_entropy[grid](logits, masks.view(torch.uint8), actions, lp, ent, B, HW, BR=BR)
    return lp, ent
