"""HMC trajectory over many chains: n_steps velocity-Verlet steps on a diagonal Gaussian, then the energy."""
import torch
import triton
import triton.language as tl

BLOCK_C = 4


@triton.jit
def _leapfrog_step(q_in, p_in, q_out, p_out, mu, prec, inv_mass, eps, n_chains, dim,
                   BLOCK_C: tl.constexpr, BLOCK_D: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_C + tl.arange(0, BLOCK_C)
    cols = tl.arange(0, BLOCK_D)
    row_ok = rows < n_chains
    col_ok = cols < dim
    mask = row_ok[:, None] & col_ok[None, :]
    offs = rows[:, None] * dim + cols[None, :]
    m = tl.load(mu + cols, mask=col_ok, other=0.0)[None, :]
    a = tl.load(prec + cols, mask=col_ok, other=0.0)[None, :]
    im = tl.load(inv_mass + cols, mask=col_ok, other=0.0)[None, :]
    x = tl.load(q_in + offs, mask=mask, other=0.0)
    r = tl.load(p_in + offs, mask=mask, other=0.0)
    half = 0.5 * eps
    r = r - half * a * (x - m)
    x = x + eps * im * r
    r = r - half * a * (x - m)
    tl.store(q_out + offs, x, mask=mask)
    tl.store(p_out + offs, r, mask=mask)


@triton.jit
def _energy(q_in, p_in, energy, mu, prec, inv_mass, n_chains, dim,
            BLOCK_C: tl.constexpr, BLOCK_D: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_C + tl.arange(0, BLOCK_C)
    cols = tl.arange(0, BLOCK_D)
    row_ok = rows < n_chains
    col_ok = cols < dim
    mask = row_ok[:, None] & col_ok[None, :]
    offs = rows[:, None] * dim + cols[None, :]
    m = tl.load(mu + cols, mask=col_ok, other=0.0)[None, :]
    a = tl.load(prec + cols, mask=col_ok, other=0.0)[None, :]
    im = tl.load(inv_mass + cols, mask=col_ok, other=0.0)[None, :]
    x = tl.load(q_in + offs, mask=mask, other=0.0)
    r = tl.load(p_in + offs, mask=mask, other=0.0)
    dx = x - m
    e = 0.5 * tl.sum(a * dx * dx, axis=1) + 0.5 * tl.sum(im * r * r, axis=1)
    tl.store(energy + rows, e, mask=row_ok)


def run(q, p, mu, prec, inv_mass, step_size: float, n_steps: int) -> tuple:
    n_chains, dim = q.shape
    block_d = triton.next_power_of_2(dim)
    grid = (triton.cdiv(n_chains, BLOCK_C),)
    # ping-pong state buffers: step k reads one pair and writes the other
    bufs = [(torch.empty_like(q), torch.empty_like(p)), (torch.empty_like(q), torch.empty_like(p))]
    x, r = q, p
    for step in range(n_steps):
        x_next, r_next = bufs[step % 2]
        _leapfrog_step[grid](x, r, x_next, r_next, mu, prec, inv_mass, step_size, n_chains, dim,
                             BLOCK_C=BLOCK_C, BLOCK_D=block_d, num_warps=8)
        x, r = x_next, r_next
    energy = torch.empty(n_chains, device=q.device, dtype=q.dtype)
    _energy[grid](x, r, energy, mu, prec, inv_mass, n_chains, dim,
                  BLOCK_C=BLOCK_C, BLOCK_D=block_d, num_warps=8)
    return x, r, energy
