"""Discounted n-step returns with episode cuts and value bootstrap over batch-first [E, T] trajectories."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _nstep_return(reward, done, value, out, E, T, stride_r, stride_d, stride_v, stride_o, gamma,
                  N_STEPS: tl.constexpr, BT: tl.constexpr, BE: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_tb = tl.cdiv(T, BT)
    n_tiles = tl.cdiv(E, BE) * n_tb
    for tile in range(pid, n_tiles, nprog):
        eb = tile // n_tb
        tb = tile - eb * n_tb
        envs = eb * BE + tl.arange(0, BE)
        steps = tb * BT + tl.arange(0, BT)
        emask = envs < E
        # tile [BT steps, BE envs]: one row per time step, envs across the row
        t2 = steps[:, None]
        e2 = envs[None, :]
        tmask = (t2 < T) & emask[None, :]
        ret = tl.zeros([BT, BE], dtype=tl.float32)
        disc = tl.full([BT, BE], 1.0, tl.float32)
        for k in tl.static_range(N_STEPS):
            kmask = (t2 + k < T) & emask[None, :]
            r = tl.load(reward + (t2 + k) + e2 * stride_r, mask=kmask, other=0.0)
            d = tl.load(done + (t2 + k) + e2 * stride_d, mask=kmask, other=0).to(tl.float32)
            ret += disc * r
            disc = disc * tl.where((t2 + k).to(tl.float32) < T, gamma * (1.0 - d), 1.0)
        vmask = (t2 + N_STEPS <= T) & emask[None, :]
        v_n = tl.load(value + (t2 + N_STEPS) + e2 * stride_v, mask=vmask, other=0.0)
        v_end = tl.load(value + T + envs * stride_v, mask=emask, other=0.0)
        boot = tl.where((t2 + N_STEPS).to(tl.float32) <= T, v_n, v_end[None, :])
        tl.store(out + t2 + e2 * stride_o, ret + disc * boot, mask=tmask)


def run(reward: torch.Tensor, done: torch.Tensor, value: torch.Tensor, gamma: float, n: int) -> torch.Tensor:
    E, T = reward.shape
    out = torch.empty((E, T), device=reward.device, dtype=reward.dtype)
    BT, BE = 16, 256
    n_tiles = triton.cdiv(E, BE) * triton.cdiv(T, BT)
    grid = (min(_VECTOR_CORES, n_tiles),)
    _nstep_return[grid](reward, done.view(torch.uint8), value, out, E, T,
                        reward.stride(0), done.stride(0), value.stride(0), out.stride(0), gamma,
                        N_STEPS=n, BT=BT, BE=BE)
    return out
