"""n-step Q-learning targets with done masks over a time-major rollout, truncated at the rollout end."""
import torch
import triton
import triton.language as tl

VECTOR_CORES = 40
BLOCK_T = 8
BLOCK_N = 256


@triton.jit
def _nstep_targets(rewards, dones, next_q, out, T, N, GAMMA: tl.constexpr, N_STEP: tl.constexpr,
                   BLOCK_T: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    tiles_n = tl.cdiv(N, BLOCK_N)
    for tile in range(pid, tl.cdiv(T, BLOCK_T) * tiles_n, nprog):
        rows = (tile // tiles_n) * BLOCK_T + tl.arange(0, BLOCK_T)
        cols = (tile % tiles_n) * BLOCK_N + tl.arange(0, BLOCK_N)
        left = (T - rows).to(tl.float32)[:, None]
        acc = tl.zeros([BLOCK_T, BLOCK_N], dtype=tl.float32)
        scale = tl.full([BLOCK_T, BLOCK_N], 1.0, dtype=tl.float32)
        boot = tl.zeros([BLOCK_T, BLOCK_N], dtype=tl.float32)
        for k in tl.static_range(N_STEP):
            inb = (rows[:, None] + k < T) & (cols[None, :] < N)
            offs = (rows[:, None] + k) * N + cols[None, :]
            r = tl.load(rewards + offs, mask=inb, other=0.0)
            d = tl.load(dones + offs, mask=inb, other=1.0)
            q = tl.load(next_q + offs, mask=inb, other=0.0)
            acc += scale * r
            scale = scale * GAMMA * (1.0 - d)
            boot = tl.where(left > k, scale * q, boot)
        inb = (rows[:, None] < T) & (cols[None, :] < N)
        tl.store(out + rows[:, None] * N + cols[None, :], acc + boot, mask=inb)


def run(rewards, dones, next_q):
    T, N = rewards.shape
    out = torch.empty_like(rewards)
    tiles = triton.cdiv(T, BLOCK_T) * triton.cdiv(N, BLOCK_N)
    _nstep_targets[(min(VECTOR_CORES, tiles),)](rewards, dones, next_q, out, T, N, GAMMA=0.997, N_STEP=5,
                                                BLOCK_T=BLOCK_T, BLOCK_N=BLOCK_N)
    return out
