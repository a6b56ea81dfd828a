"""Spectral kurtosis per input and integration from CHIME 4+4-bit offset-encoded complex voltages."""
import torch
import triton
import triton.language as tl


@triton.jit
def _decode_4bit(x, re, im, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < N
    v = tl.load(x + offs, mask=ok, other=0x88).to(tl.int32)
    tl.store(re + offs, ((v >> 4) - 8).to(tl.float32), mask=ok)
    tl.store(im + offs, ((v & 15) - 8).to(tl.float32), mask=ok)


@triton.jit
def _sk_timesum(re, im, sk, M, E, BLOCK_T: tl.constexpr, BLOCK_E: tl.constexpr):
    blk = tl.program_id(0)
    pid_e = tl.program_id(1)
    e = pid_e * BLOCK_E + tl.arange(0, BLOCK_E)
    e_ok = e < E
    rows = tl.arange(0, BLOCK_T)
    off = blk * M * E
    s1 = tl.zeros((BLOCK_E,), dtype=tl.float32)
    s2 = tl.zeros((BLOCK_E,), dtype=tl.float32)
    for t0 in range(0, M, BLOCK_T):
        t = t0 + rows
        ok = (t[:, None] < M) & e_ok[None, :]
        idx = off + t[:, None] * E + e[None, :]
        a = tl.load(re + idx, mask=ok, other=0.0)
        b = tl.load(im + idx, mask=ok, other=0.0)
        p = a * a + b * b
        s1 += tl.sum(p, axis=0)
        s2 += tl.sum(p * p, axis=0)
    m = M.to(tl.float32)
    val = (m + 1.0) / (m - 1.0) * (m * s2 / (s1 * s1) - 1.0)
    tl.store(sk + blk * E + e, val, mask=e_ok)


def run(x: torch.Tensor) -> torch.Tensor:
    B, M, E = x.shape
    N = x.numel()
    re = torch.empty((B, M, E), device=x.device, dtype=torch.float32)
    im = torch.empty((B, M, E), device=x.device, dtype=torch.float32)
    _decode_4bit[(triton.cdiv(N, 1024),)](x, re, im, N, BLOCK=1024, num_warps=4)
    sk = torch.empty((B, E), device=x.device, dtype=torch.float32)
    BLOCK_T, BLOCK_E = 32, 256
    grid = (B, triton.cdiv(E, BLOCK_E))
    _sk_timesum[grid](re, im, sk, M, E, BLOCK_T=BLOCK_T, BLOCK_E=BLOCK_E, num_warps=4)
    return sk
