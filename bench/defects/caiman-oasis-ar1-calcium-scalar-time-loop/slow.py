"""OASIS AR(1) calcium model: c[n, t] = g[n] * c[n, t-1] + s[n, t] for every neuron."""
import torch
import triton
import triton.language as tl


@triton.jit
def _ar1_calcium(s, g, c, T):
    row = tl.program_id(0)
    decay = tl.load(g + row)
    base = row * T
    ct = 0.0
    for t in range(0, T):
        ct = decay * ct + tl.load(s + base + t)
        tl.store(c + base + t, ct)


def run(s: torch.Tensor, g: torch.Tensor) -> torch.Tensor:
    N, T = s.shape
    c = torch.empty((N, T), device=s.device, dtype=torch.float32)
    _ar1_calcium[(N,)](s, g, c, T, num_warps=4)
    return c
