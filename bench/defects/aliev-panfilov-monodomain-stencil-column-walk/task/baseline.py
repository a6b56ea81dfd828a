"""Aliev-Panfilov 2-D monodomain step: 5-point diffusion (no-flux edges) + forward-Euler reaction."""
import torch
import triton
import triton.language as tl

BLOCK = 512
A, B, K, EPS, MU1, MU2 = 0.1, 0.1, 8.0, 0.01, 0.07, 0.3


@triton.jit
def _ap_step(e_prev, r_prev, e_next, r_next, m, n, dt, alpha, a, b, k, eps, mu1, mu2,
             BLOCK: tl.constexpr):
    cols = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    row = tl.program_id(1)
    ok = cols < n
    idx = row * n + cols
    e = tl.load(e_prev + idx, mask=ok, other=0.0)
    up = tl.load(e_prev + idx - n, mask=ok & (row > 0), other=0.0)
    down = tl.load(e_prev + idx + n, mask=ok & (row < m - 1), other=0.0)
    left = tl.load(e_prev + idx - 1, mask=ok & (cols > 0), other=0.0)
    right = tl.load(e_prev + idx + 1, mask=ok & (cols < n - 1), other=0.0)
    # no-flux boundary: the ghost cell mirrors the first interior neighbour
    up, down = tl.where(row > 0, up, down), tl.where(row < m - 1, down, up)
    left, right = tl.where(cols > 0, left, right), tl.where(cols < n - 1, right, left)
    e = e + alpha * (up + down + left + right - 4.0 * e)
    r = tl.load(r_prev + idx, mask=ok, other=0.0)
    e = e - dt * (k * e * (e - a) * (e - 1.0) + e * r)
    r = r + dt * (eps + mu1 * r / (e + mu2)) * (-r - k * e * (e - b - 1.0))
    tl.store(e_next + idx, e, mask=ok)
    tl.store(r_next + idx, r, mask=ok)


def run(e: torch.Tensor, r: torch.Tensor, dt: float, alpha: float) -> tuple:
    m, n = e.shape
    e_next = torch.empty_like(e)
    r_next = torch.empty_like(r)
    grid = (triton.cdiv(n, BLOCK), m)  # one program per row segment of BLOCK columns
    _ap_step[grid](e, r, e_next, r_next, m, n, dt, alpha, A, B, K, EPS, MU1, MU2,
                   BLOCK=BLOCK, num_warps=4)
    return e_next, r_next
