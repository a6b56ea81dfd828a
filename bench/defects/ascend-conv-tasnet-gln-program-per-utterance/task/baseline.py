"""Conv-TasNet global layer norm: one mean/variance per utterance over channels and time, per-channel affine."""
import torch
import triton
import triton.language as tl

NUM_CORES = 40


@triton.jit
def _gln_row_stats(x, part, R, T, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for r in range(pid, R, nprog):
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        acc2 = tl.zeros([BLOCK], dtype=tl.float32)
        for t0 in range(0, T, BLOCK):
            t = t0 + tl.arange(0, BLOCK)
            v = tl.load(x + r * T + t, mask=t < T, other=0.0)
            acc += v
            acc2 += v * v
        tl.store(part + r, tl.sum(acc, axis=0))
        tl.store(part + R + r, tl.sum(acc2, axis=0))


@triton.jit
def _gln_apply(x, gamma, beta, part, y, B, N, T, eps, BLOCK: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    R = B * N
    cnt = N * T
    cols = tl.arange(0, BLOCK_N)
    for b in range(0, B):
        s1 = tl.sum(tl.load(part + b * N + cols, mask=cols < N, other=0.0), axis=0)
        s2 = tl.sum(tl.load(part + R + b * N + cols, mask=cols < N, other=0.0), axis=0)
        mean = s1 / cnt
        rstd = 1.0 / tl.sqrt(s2 / cnt - mean * mean + eps)
        for n in range(pid, N, nprog):
            scale = tl.load(gamma + n) * rstd
            shift = tl.load(beta + n) - mean * scale
            row = (b * N + n) * T
            for t0 in range(0, T, BLOCK):
                t = t0 + tl.arange(0, BLOCK)
                v = tl.load(x + row + t, mask=t < T, other=0.0)
                tl.store(y + row + t, v * scale + shift, mask=t < T)


def run(x: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor) -> torch.Tensor:
    B, N, T = x.shape
    y = torch.empty_like(x)
    part = torch.empty(2 * B * N, device=x.device, dtype=torch.float32)
    _gln_row_stats[(min(NUM_CORES, B * N),)](x, part, B * N, T, BLOCK=4096)
    _gln_apply[(min(NUM_CORES, N),)](x, gamma, beta, part, y, B, N, T, 1e-8,
                                     BLOCK=4096, BLOCK_N=triton.next_power_of_2(N))
    return y
