"""Heston full-truncation Euler paths: HestonProcess::evolve as a step kernel, driven over the time grid."""
import torch
import triton
import triton.language as tl


@triton.jit
def _heston_evolve(z1, z2, heston, s, v, n_paths, FIRST: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_paths
    kappa = tl.load(heston + 2)
    theta = tl.load(heston + 3)
    sigma = tl.load(heston + 4)
    rho = tl.load(heston + 5)
    r = tl.load(heston + 6)
    dt = tl.load(heston + 7)
    sdt = tl.sqrt(dt)
    rho_bar = tl.sqrt(1.0 - rho * rho)
    if FIRST:
        s_t = tl.zeros([BLOCK], dtype=tl.float32) + tl.load(heston + 0)
        v_t = tl.zeros([BLOCK], dtype=tl.float32) + tl.load(heston + 1)
    else:
        s_t = tl.load(s + offs, mask=mask, other=0.0)
        v_t = tl.load(v + offs, mask=mask, other=0.0)
    dw1 = tl.load(z1 + offs, mask=mask, other=0.0)
    dw2 = tl.load(z2 + offs, mask=mask, other=0.0)
    vp = tl.maximum(v_t, 0.0)
    vol = tl.sqrt(vp)
    s_t = s_t * tl.exp((r - 0.5 * vp) * dt + vol * sdt * dw1)
    v_t = v_t + kappa * (theta - vp) * dt + sigma * vol * sdt * (rho * dw1 + rho_bar * dw2)
    tl.store(s + offs, s_t, mask=mask)
    tl.store(v + offs, v_t, mask=mask)


def run(z: torch.Tensor, heston: torch.Tensor) -> torch.Tensor:
    _, n_steps, n_paths = z.shape
    s = torch.empty(n_paths, device=z.device, dtype=torch.float32)
    v = torch.empty(n_paths, device=z.device, dtype=torch.float32)
    BLOCK = 1024
    grid = (triton.cdiv(n_paths, BLOCK),)
    for t in range(n_steps):
        _heston_evolve[grid](z[0, t], z[1, t], heston, s, v, n_paths, FIRST=t == 0, BLOCK=BLOCK, num_warps=4)
    return s
