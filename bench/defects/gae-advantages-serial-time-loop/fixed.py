"""GAE for PPO: each sequence scanned backwards in blocks with a reverse associative scan of affine maps."""
import torch
import triton
import triton.language as tl


@triton.jit
def _affine(a1, b1, a2, b2):
    # compose y -> b1 + a1 * y (nearer the end) with y -> b2 + a2 * y
    return a1 * a2, b1 * a2 + b2


@triton.jit
def gae_kernel(r_ptr, v_ptr, adv_ptr, ret_ptr, T, gamma, lam, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64) * T
    carry = 0.0
    n_blocks = tl.cdiv(T, BLOCK)
    for i in range(n_blocks):
        t = (n_blocks - 1 - i) * BLOCK + tl.arange(0, BLOCK)
        m = t < T
        r = tl.load(r_ptr + row + t, mask=m, other=0.0)
        v = tl.load(v_ptr + row + t, mask=m, other=0.0)
        v_next = tl.load(v_ptr + row + t + 1, mask=t + 1 < T, other=0.0)
        delta = tl.where(m, r + gamma * v_next - v, 0.0)
        decay = tl.where(m, gamma * lam, 1.0)
        a, b = tl.associative_scan((decay, delta), 0, _affine, reverse=True)
        adv = b + a * carry
        tl.store(adv_ptr + row + t, adv, mask=m)
        tl.store(ret_ptr + row + t, adv + v, mask=m)
        carry = tl.sum(tl.where(tl.arange(0, BLOCK) == 0, adv, 0.0), axis=0)


def run(rewards: torch.Tensor, values: torch.Tensor, gamma: float, lam: float) -> tuple:
    B, T = rewards.shape
    adv = torch.empty_like(rewards)
    ret = torch.empty_like(rewards)
    gae_kernel[(B,)](rewards, values, adv, ret, T, gamma, lam, BLOCK=512)
    return adv, ret
