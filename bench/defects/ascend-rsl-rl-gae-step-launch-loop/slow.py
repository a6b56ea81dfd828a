"""GAE returns and advantages over a time-major rollout storage (rsl_rl compute_returns)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _gae_step(rewards_t, values_t, dones_t, next_values, next_adv, returns_t, adv_t, N, gamma, lam,
              LAST: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for start in range(pid * BLOCK, N, nprog * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        m = offs < N
        next_v = tl.load(next_values + offs, mask=m, other=0.0)
        if LAST:
            adv = tl.zeros([BLOCK], dtype=tl.float32)
        else:
            adv = tl.load(next_adv + offs, mask=m, other=0.0)
        r = tl.load(rewards_t + offs, mask=m, other=0.0)
        v = tl.load(values_t + offs, mask=m, other=0.0)
        d = tl.load(dones_t + offs, mask=m, other=0).to(tl.float32)
        not_done = 1.0 - d
        delta = r + not_done * gamma * next_v - v
        adv = delta + not_done * gamma * lam * adv
        tl.store(adv_t + offs, adv, mask=m)
        tl.store(returns_t + offs, adv + v, mask=m)


def run(rewards, values, dones, last_values, gamma: float, lam: float) -> tuple:
    T, N = rewards.shape
    returns = torch.empty_like(rewards)
    advantages = torch.empty_like(rewards)
    BLOCK = 128
    grid = (min(_VECTOR_CORES, triton.cdiv(N, BLOCK)),)
    for step in reversed(range(T)):
        last = step == T - 1
        next_values = last_values if last else values[step + 1]
        next_adv = advantages[step] if last else advantages[step + 1]
        _gae_step[grid](rewards[step], values[step], dones[step], next_values, next_adv,
                        returns[step], advantages[step], N, gamma, lam, LAST=last, BLOCK=BLOCK)
    return returns, advantages
