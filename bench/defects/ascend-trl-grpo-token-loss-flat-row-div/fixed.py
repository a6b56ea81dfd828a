"""Per-token GRPO loss: clipped importance ratio times the completion's advantage plus a k3 KL penalty."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _grpo_token_loss(logp, old_logp, ref_logp, adv, completion_mask, out, B, T,
                     eps_low, eps_high, beta, BB: tl.constexpr, BT: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_tb = tl.cdiv(T, BT)
    for tile in range(pid, tl.cdiv(B, BB) * n_tb, nprog):
        rb = tile // n_tb
        tb = tile % n_tb
        rows = rb * BB + tl.arange(0, BB)
        cols = tb * BT + tl.arange(0, BT)
        rm = rows < B
        m = rm[:, None] & (cols < T)[None, :]
        offs = rows[:, None] * T + cols[None, :]
        lp = tl.load(logp + offs, mask=m, other=0.0)
        olp = tl.load(old_logp + offs, mask=m, other=0.0)
        rlp = tl.load(ref_logp + offs, mask=m, other=0.0)
        keep = tl.load(completion_mask + offs, mask=m, other=0).to(tl.float32)
        a = tl.load(adv + rows, mask=rm, other=0.0)[:, None]
        ratio = tl.exp(lp - olp)
        clipped = tl.minimum(tl.maximum(ratio, 1.0 - eps_low), 1.0 + eps_high)
        loss = -tl.minimum(ratio * a, clipped * a)
        d = rlp - lp
        kl = tl.exp(d) - d - 1.0
        tl.store(out + offs, (loss + beta * kl) * keep, mask=m)


def run(logp, old_logp, ref_logp, adv, completion_mask, eps_low: float, eps_high: float,
        beta: float) -> torch.Tensor:
    B, T = logp.shape
    out = torch.empty_like(logp)
    BT = min(1024, triton.next_power_of_2(T))
    BB = 2048 // BT
    grid = (min(_VECTOR_CORES, triton.cdiv(B, BB) * triton.cdiv(T, BT)),)
    _grpo_token_loss[grid](logp, old_logp, ref_logp, adv, completion_mask, out, B, T,
                           eps_low, eps_high, beta, BB=BB, BT=BT)
    return out
