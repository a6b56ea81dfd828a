"""Lennard-Jones neighbour-list forces: one program per block of atoms sums its [atoms, K] pair forces
over the neighbour axis in registers and stores each force once."""
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
def lj_force_kernel(pos_ptr, nbr_ptr, out_ptr, N, box, inv_box, rc2, sig2, eps24,
                    K: tl.constexpr, BLOCK_I: tl.constexpr):
    i = tl.program_id(0) * BLOCK_I + tl.arange(0, BLOCK_I)
    im = i < N
    k = tl.arange(0, K)
    j = tl.load(nbr_ptr + i[:, None] * K + k[None, :], mask=im[:, None], other=-1)
    valid = j >= 0
    jj = tl.where(valid, j, 0)
    xi = tl.load(pos_ptr + i * 3 + 0, mask=im, other=0.0)[:, None]
    yi = tl.load(pos_ptr + i * 3 + 1, mask=im, other=0.0)[:, None]
    zi = tl.load(pos_ptr + i * 3 + 2, mask=im, other=0.0)[:, None]
    xj = tl.load(pos_ptr + jj * 3 + 0, mask=valid, other=0.0)
    yj = tl.load(pos_ptr + jj * 3 + 1, mask=valid, other=0.0)
    zj = tl.load(pos_ptr + jj * 3 + 2, mask=valid, other=0.0)
    dx, dy, dz, inside, fmag = _lj_pair(xi, yi, zi, xj, yj, zj, box, inv_box, rc2, sig2, eps24)
    fmag = tl.where(valid & inside, fmag, 0.0)
    tl.store(out_ptr + i * 3 + 0, tl.sum(fmag * dx, axis=1), mask=im)
    tl.store(out_ptr + i * 3 + 1, tl.sum(fmag * dy, axis=1), mask=im)
    tl.store(out_ptr + i * 3 + 2, tl.sum(fmag * dz, axis=1), mask=im)


def run(pos: torch.Tensor, nbr: torch.Tensor, box: float) -> torch.Tensor:
    N, K = nbr.shape
    out = torch.empty((N, 3), device=pos.device, dtype=torch.float32)
    BLOCK_I = 32
    lj_force_kernel[(triton.cdiv(N, BLOCK_I),)](pos, nbr, out, N, box, 1.0 / box, 2.5 * 2.5, 1.0, 24.0,
                                                K=K, BLOCK_I=BLOCK_I)
    return out
