"""rl_games discount_values as a Triton kernel: one program per environment walks the horizon backwards."""
import torch
import triton
import triton.language as tl


@triton.jit
def gae_env_kernel(rew_ptr, val_ptr, done_ptr, last_val_ptr, last_done_ptr, adv_ptr, ret_ptr,
                   T, N, gamma, gamma_tau):
    env = tl.program_id(0)
    next_value = tl.load(last_val_ptr + env)
    next_nonterminal = 1.0 - tl.load(last_done_ptr + env)
    lastgaelam = tl.zeros((), dtype=tl.float32)
    for i in range(T):
        t = T - 1 - i
        off = t * N + env            # buffers are [horizon, num_envs]
        r = tl.load(rew_ptr + off)
        v = tl.load(val_ptr + off)
        delta = r + gamma * next_value * next_nonterminal - v
        lastgaelam = delta + gamma_tau * next_nonterminal * lastgaelam
        tl.store(adv_ptr + off, lastgaelam)
        tl.store(ret_ptr + off, lastgaelam + v)
        next_value = v
        next_nonterminal = 1.0 - tl.load(done_ptr + off)


def discount_values(rewards, values, dones, last_values, last_dones, gamma, tau):
    T, N = rewards.shape
    advs = torch.empty_like(rewards)
    returns = torch.empty_like(rewards)
    gae_env_kernel[(N,)](rewards, values, dones, last_values, last_dones, advs, returns,
                         T, N, gamma, gamma * tau)
    return advs, returns


def run(rewards, values, dones, last_values, last_dones, gamma, tau):
    return discount_values(rewards, values, dones, last_values, last_dones, gamma, tau)
