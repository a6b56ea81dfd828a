"""rl_games discount_values as a Triton kernel: each program owns a block of contiguous environments and
walks the horizon backwards with vector loads of one time row."""
import torch
import triton
import triton.language as tl


@triton.jit
def gae_env_block_kernel(rew_ptr, val_ptr, done_ptr, last_val_ptr, last_done_ptr, adv_ptr, ret_ptr,
                         T, N, gamma, gamma_tau, BLOCK_N: tl.constexpr):
    envs = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = envs < N
    next_value = tl.load(last_val_ptr + envs, mask=mask, other=0.0)
    next_nonterminal = 1.0 - tl.load(last_done_ptr + envs, mask=mask, other=0.0)
    lastgaelam = tl.zeros([BLOCK_N], dtype=tl.float32)
    for i in range(T):
        t = T - 1 - i
        off = t * N + envs
        r = tl.load(rew_ptr + off, mask=mask, other=0.0)
        v = tl.load(val_ptr + off, mask=mask, other=0.0)
        delta = r + gamma * next_value * next_nonterminal - v
        lastgaelam = delta + gamma_tau * next_nonterminal * lastgaelam
        tl.store(adv_ptr + off, lastgaelam, mask=mask)
        tl.store(ret_ptr + off, lastgaelam + v, mask=mask)
        next_value = v
        next_nonterminal = 1.0 - tl.load(done_ptr + off, mask=mask, other=0.0)


def discount_values(rewards, values, dones, last_values, last_dones, gamma, tau):
    T, N = rewards.shape
    advs = torch.empty_like(rewards)
    returns = torch.empty_like(rewards)
    BLOCK_N = min(128, triton.next_power_of_2(N))
    gae_env_block_kernel[(triton.cdiv(N, BLOCK_N),)](rewards, values, dones, last_values, last_dones, advs, returns,
                                                     T, N, gamma, gamma * tau, BLOCK_N=BLOCK_N, num_warps=4)
    return advs, returns


def run(rewards, values, dones, last_values, last_dones, gamma, tau):
    return discount_values(rewards, values, dones, last_values, last_dones, gamma, tau)
