"""GAE returns and advantages over a time-major rollout storage (rsl_rl compute_returns)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _gae_returns(rewards, values, dones, last_values, returns, advantages, T, N, gamma, lam,
                 BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for start in range(pid * BLOCK, N, nprog * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        m = offs < N
        next_v = tl.load(last_values + offs, mask=m, other=0.0)
        adv = tl.zeros([BLOCK], dtype=tl.float32)
        for i in range(T):
            t = T - 1 - i
            r = tl.load(rewards + t * N + offs, mask=m, other=0.0)
            v = tl.load(values + t * N + offs, mask=m, other=0.0)
            d = tl.load(dones + t * N + offs, mask=m, other=0).to(tl.float32)
            not_done = 1.0 - d
            delta = r + not_done * gamma * next_v - v
            adv = delta + not_done * gamma * lam * adv
            tl.store(advantages + t * N + offs, adv, mask=m)
            tl.store(returns + t * N + offs, adv + v, mask=m)
            next_v = v


def run(rewards, values, dones, last_values, gamma: float, lam: float) -> tuple:
    T, N = rewards.shape
    returns = torch.empty_like(rewards)
    advantages = torch.empty_like(rewards)
    BLOCK = 128
    grid = (min(_VECTOR_CORES, triton.cdiv(N, BLOCK)),)
    _gae_returns[grid](rewards, values, dones, last_values, returns, advantages, T, N, gamma, lam,
                       BLOCK=BLOCK)
    return returns, advantages
