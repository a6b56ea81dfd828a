"""Lennard-Jones neighbour-list forces: one lane per (atom, neighbour) pair, each pair force added
into its atom's force with an atomic add."""
import torch
import triton
import triton.language as tl


@triton.jit
def _lj_pair(xi, yi, zi, xj, yj, zj, box, inv_box, rc2, sig2, eps24):
    dx = xi - xj
    dy = yi - yj
    dz = zi - zj
    dx = dx - box * tl.floor(dx * inv_box + 0.5)
    dy = dy - box * tl.floor(dy * inv_box + 0.5)
    dz = dz - box * tl.floor(dz * inv_box + 0.5)
    r2 = dx * dx + dy * dy + dz * dz
    inv2 = sig2 / r2
    inv6 = inv2 * inv2 * inv2
    fmag = eps24 * (2.0 * inv6 * inv6 - inv6) / r2
    return dx, dy, dz, r2 < rc2, fmag


@triton.jit
def lj_force_kernel(pos_ptr, nbr_ptr, out_ptr, num_pairs, box, inv_box, rc2, sig2, eps24,
                    K: tl.constexpr, BLOCK: tl.constexpr):
    p = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    pm = p < num_pairs
    i = p // K
    j = tl.load(nbr_ptr + p, mask=pm, other=-1)
    valid = j >= 0
    jj = tl.where(valid, j, 0)
    xi = tl.load(pos_ptr + i * 3 + 0, mask=pm, other=0.0)
    yi = tl.load(pos_ptr + i * 3 + 1, mask=pm, other=0.0)
    zi = tl.load(pos_ptr + i * 3 + 2, mask=pm, other=0.0)
    xj = tl.load(pos_ptr + jj * 3 + 0, mask=valid, other=0.0)
    yj = tl.load(pos_ptr + jj * 3 + 1, mask=valid, other=0.0)
    zj = tl.load(pos_ptr + jj * 3 + 2, mask=valid, other=0.0)
    dx, dy, dz, inside, fmag = _lj_pair(xi, yi, zi, xj, yj, zj, box, inv_box, rc2, sig2, eps24)
    hit = valid & inside
    tl.atomic_add(out_ptr + i * 3 + 0, fmag * dx, mask=hit)
    tl.atomic_add(out_ptr + i * 3 + 1, fmag * dy, mask=hit)
    tl.atomic_add(out_ptr + i * 3 + 2, fmag * dz, mask=hit)


def run(pos: torch.Tensor, nbr: torch.Tensor, box: float) -> torch.Tensor:
    N, K = nbr.shape
    out = torch.zeros((N, 3), device=pos.device, dtype=torch.float32)
    BLOCK = 1024
    lj_force_kernel[(triton.cdiv(N * K, BLOCK),)](pos, nbr, out, N * K, box, 1.0 / box, 2.5 * 2.5, 1.0, 24.0,
                                                  K=K, BLOCK=BLOCK)
    return out
