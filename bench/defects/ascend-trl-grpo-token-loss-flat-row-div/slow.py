"""Per-token GRPO loss: clipped importance ratio times the completion's advantage plus a k3 KL penalty."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _grpo_token_loss(logp, old_logp, ref_logp, adv, completion_mask, out, n_tokens, T,
                     eps_low, eps_high, beta, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for start in range(pid * BLOCK, n_tokens, nprog * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        m = offs < n_tokens
        lp = tl.load(logp + offs, mask=m, other=0.0)
        olp = tl.load(old_logp + offs, mask=m, other=0.0)
        rlp = tl.load(ref_logp + offs, mask=m, other=0.0)
        keep = tl.load(completion_mask + offs, mask=m, other=0).to(tl.float32)
        a = tl.load(adv + offs // T, mask=m, other=0.0)
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
    n_tokens = B * T
    BLOCK = 2048
    grid = (min(_VECTOR_CORES, triton.cdiv(n_tokens, BLOCK)),)
    _grpo_token_loss[grid](logp, old_logp, ref_logp, adv, completion_mask, out, n_tokens, T,
                           eps_low, eps_high, beta, BLOCK=BLOCK)
    return out
