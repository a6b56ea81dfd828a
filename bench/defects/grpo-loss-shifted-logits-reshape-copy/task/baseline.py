"""GRPO per-token loss: one program per completion token, logits read in place through their [B, L + 1, V] strides."""
import torch
import triton
import triton.language as tl

_LAUNCH = {"BLOCK_N": 4096, "num_warps": 4, "num_stages": 1}


@triton.jit
def _row_logsumexp(row_ptr, inv_temp, N: tl.constexpr, BLOCK_N: tl.constexpr):
    m_i = float("-inf")
    l_i = 0.0
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        x = tl.load(row_ptr + cols, mask=cols < N, other=float("-inf")).to(tl.float32) * inv_temp
        m_new = tl.maximum(m_i, tl.max(x, axis=0))
        l_i = l_i * tl.exp(m_i - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m_i = m_new
    return m_i + tl.log(l_i)


@triton.jit
def _clipped_surrogate(logp, old_logp, adv, eps_low, eps_high):
    coef1 = tl.exp(logp - old_logp)
    coef2 = tl.minimum(tl.maximum(coef1, 1.0 - eps_low), 1.0 + eps_high)
    return -tl.minimum(coef1 * adv, coef2 * adv)


@triton.jit
def _grpo_token_loss_fwd(
    logits_ptr, old_logp_ptr, ref_logp_ptr, ids_ptr, adv_ptr, mask_ptr,
    loss_ptr, kl_ptr, lse_ptr,
    stride_lb, stride_lt,
    inv_temp, beta, eps_low, eps_high,
    L: tl.constexpr, N: tl.constexpr, BLOCK_N: tl.constexpr,
):
    off_b = tl.program_id(0).to(tl.int64)
    off_l = tl.program_id(1).to(tl.int64)
    tok = off_b * L + off_l
    if tl.load(mask_ptr + tok) == 0:
        return
    row_ptr = logits_ptr + off_b * stride_lb + off_l * stride_lt
    lse = _row_logsumexp(row_ptr, inv_temp, N, BLOCK_N)
    idx = tl.load(ids_ptr + tok)
    logp = tl.load(row_ptr + idx).to(tl.float32) * inv_temp - lse
    old_logp = tl.load(old_logp_ptr + tok)
    adv = tl.load(adv_ptr + off_b)
    loss = _clipped_surrogate(logp, old_logp, adv, eps_low, eps_high)
    ref_logp = tl.load(ref_logp_ptr + tok)
    d = ref_logp - logp
    kl = tl.exp(d) - d - 1.0
    tl.store(loss_ptr + tok, loss + beta * kl)
    tl.store(kl_ptr + tok, kl)
    tl.store(lse_ptr + tok, lse)


def run(logits, old_logp, ref_logp, ids, advantages, mask, temperature, beta, eps_low, eps_high):
    B, L1, V = logits.shape
    L = L1 - 1
    loss = torch.zeros((B, L), device=logits.device, dtype=torch.float32)
    kl = torch.zeros_like(loss)
    lse = torch.zeros_like(loss)
    _grpo_token_loss_fwd[(B, L)](
        logits, old_logp, ref_logp, ids, advantages, mask, loss, kl, lse,
        logits.stride(0), logits.stride(1),
        1.0 / temperature, beta, eps_low, eps_high,
        L=L, N=V, **_LAUNCH,
    )
    return loss, kl, lse
