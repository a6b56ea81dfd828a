"""GAE for PPO, ported from the trainer's Python loop: one program per sequence walks the tokens backwards."""
import torch
import triton
import triton.language as tl


@triton.jit
def gae_kernel(r_ptr, v_ptr, adv_ptr, ret_ptr, T, gamma, lam):
    row = tl.program_id(0).to(tl.int64) * T
    last_gae = 0.0
    next_value = 0.0
    for i in range(T):
        t = T - 1 - i
        r = tl.load(r_ptr + row + t)
        v = tl.load(v_ptr + row + t)
        delta = r + gamma * next_value - v
        last_gae = delta + gamma * lam * last_gae
        tl.store(adv_ptr + row + t, last_gae)
        tl.store(ret_ptr + row + t, last_gae + v)
        next_value = v


def run(rewards: torch.Tensor, values: torch.Tensor, gamma: float, lam: float) -> tuple:
    B, T = rewards.shape
    adv = torch.empty_like(rewards)
    ret = torch.empty_like(rewards)
    gae_kernel[(B,)](rewards, values, adv, ret, T, gamma, lam)
    return adv, ret
