"""Pythia8 SlowJet anti-kT (p = -1): per particle the smallest of its beam distance and pair distances."""
import torch
import triton
import triton.language as tl

BLOCK_I = 64
BLOCK_J = 64


@triton.jit
def _antikt_nearest(pt_ptr, y_ptr, phi_ptr, npart_ptr, dmin_ptr, n_slots, inv_r2,
                    BLOCK_I: tl.constexpr, BLOCK_J: tl.constexpr):
    # d_ij = min(pT_i^-2, pT_j^-2) * dR_ij^2 / R^2 for every pair of one event, folded into
    # d_i = min(d_iB, min_j d_ij) as the tiles are formed
    ev = tl.program_id(0)
    i = tl.program_id(1) * BLOCK_I + tl.arange(0, BLOCK_I)
    n = tl.load(npart_ptr + ev)
    row_ok = i < n
    base = ev * n_slots
    pt_i = tl.load(pt_ptr + base + i, mask=row_ok, other=1.0)
    y_i = tl.load(y_ptr + base + i, mask=row_ok, other=0.0)
    phi_i = tl.load(phi_ptr + base + i, mask=row_ok, other=0.0)
    dib_i = 1.0 / (pt_i * pt_i)
    best = dib_i
    for j0 in range(0, n, BLOCK_J):
        j = j0 + tl.arange(0, BLOCK_J)
        col_ok = j < n
        pt_j = tl.load(pt_ptr + base + j, mask=col_ok, other=1.0)
        y_j = tl.load(y_ptr + base + j, mask=col_ok, other=0.0)
        phi_j = tl.load(phi_ptr + base + j, mask=col_ok, other=0.0)
        dib_j = 1.0 / (pt_j * pt_j)
        dy = y_i[:, None] - y_j[None, :]
        dphi = tl.abs(phi_i[:, None] - phi_j[None, :])
        dphi = tl.where(dphi > 3.141592653589793, 6.283185307179586 - dphi, dphi)
        d = tl.minimum(dib_i[:, None], dib_j[None, :]) * (dy * dy + dphi * dphi) * inv_r2
        d = tl.where((i[:, None] == j[None, :]) | (j[None, :] >= n), float("inf"), d)
        best = tl.minimum(best, tl.min(d, axis=1))
    tl.store(dmin_ptr + base + i, tl.where(row_ok, best, 0.0), mask=i < n_slots)


def run(pt: torch.Tensor, y: torch.Tensor, phi: torch.Tensor, n_part: torch.Tensor, r: float) -> torch.Tensor:
    n_events, n_slots = pt.shape
    dmin = torch.empty((n_events, n_slots), device=pt.device, dtype=torch.float32)
    grid = (n_events, triton.cdiv(n_slots, BLOCK_I))
    _antikt_nearest[grid](pt, y, phi, n_part, dmin, n_slots, 1.0 / (r * r),
                          BLOCK_I=BLOCK_I, BLOCK_J=BLOCK_J, num_warps=4)
    return dmin
