"""OASIS AR(1) calcium model: c[n, t] = g[n] * c[n, t-1] + s[n, t] for every neuron."""
import torch
import triton
import triton.language as tl

BLOCK_T = 1024


@triton.jit
def _affine(a1, b1, a2, b2):
    # compose x -> a1 x + b1, then x -> a2 x + b2
    return a1 * a2, b1 * a2 + b2


@triton.jit
def _ar1_calcium(s, g, c, T, BLOCK_T: tl.constexpr):
    row = tl.program_id(0)
    decay = tl.load(g + row)
    base = row * T
    k = tl.arange(0, BLOCK_T)
    ct = 0.0
    for t0 in range(0, T, BLOCK_T):
        t = t0 + k
        ok = t < T
        x = tl.load(s + base + t, mask=ok, other=0.0)
        gk = tl.zeros([BLOCK_T], dtype=tl.float32) + decay
        powers, local = tl.associative_scan((gk, x), 0, _affine)
        block = local + powers * ct
        tl.store(c + base + t, block, mask=ok)
        ct = tl.sum(tl.where(k == BLOCK_T - 1, block, 0.0), axis=0)


def run(s: torch.Tensor, g: torch.Tensor) -> torch.Tensor:
    N, T = s.shape
    c = torch.empty((N, T), device=s.device, dtype=torch.float32)
    _ar1_calcium[(N,)](s, g, c, T, BLOCK_T=BLOCK_T, num_warps=4)
    return c
