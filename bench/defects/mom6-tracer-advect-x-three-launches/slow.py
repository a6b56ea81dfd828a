"""MOM6 tracer advection, zonal sweep (advect_x): PLM slopes, upwind face fluxes, flux-form update."""
import torch
import triton
import triton.language as tl


@triton.jit
def _wrap(i, ni):
    i = tl.where(i < 0, i + ni, i)
    return tl.where(i >= ni, i - ni, i)


@triton.jit
def _plm_slope_x(q, slope, ni, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    i = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    m = i < ni
    q_row = q + row * ni
    qm = tl.load(q_row + _wrap(i - 1, ni), mask=m, other=0.0)
    qc = tl.load(q_row + i, mask=m, other=0.0)
    qp = tl.load(q_row + _wrap(i + 1, ni), mask=m, other=0.0)
    d_max = tl.maximum(tl.maximum(qm, qp), qc) - qc
    d_min = qc - tl.minimum(tl.minimum(qm, qp), qc)
    mag = tl.minimum(tl.minimum(0.5 * tl.abs(qp - qm), 2.0 * d_max), 2.0 * d_min)
    tl.store(slope + row * ni + i, tl.where(qp - qm >= 0, mag, -mag), mask=m)


@triton.jit
def _flux_x(q, slope, u, rdx, flux, nj, ni, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    i = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    m = i < ni
    base = row * ni
    ie = _wrap(i + 1, ni)
    c = tl.load(u + base + i, mask=m, other=0.0) * tl.load(rdx + row % nj)
    q_w = tl.load(q + base + i, mask=m, other=0.0)
    s_w = tl.load(slope + base + i, mask=m, other=0.0)
    q_e = tl.load(q + base + ie, mask=m, other=0.0)
    s_e = tl.load(slope + base + ie, mask=m, other=0.0)
    f = tl.where(c >= 0, c * (q_w + 0.5 * s_w * (1.0 - c)), c * (q_e - 0.5 * s_e * (1.0 + c)))
    tl.store(flux + base + i, f, mask=m)


@triton.jit
def _update_x(q, flux, q_new, ni, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    i = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    m = i < ni
    base = row * ni
    f_e = tl.load(flux + base + i, mask=m, other=0.0)
    f_w = tl.load(flux + base + _wrap(i - 1, ni), mask=m, other=0.0)
    tl.store(q_new + base + i, tl.load(q + base + i, mask=m, other=0.0) - (f_e - f_w), mask=m)


def run(q: torch.Tensor, u: torch.Tensor, rdx: torch.Tensor) -> torch.Tensor:
    nk, nj, ni = q.shape
    slope = torch.empty_like(q)
    flux = torch.empty_like(q)
    q_new = torch.empty_like(q)
    BLOCK = 512
    grid = (nk * nj, triton.cdiv(ni, BLOCK))
    _plm_slope_x[grid](q, slope, ni, BLOCK=BLOCK, num_warps=4)
    _flux_x[grid](q, slope, u, rdx, flux, nj, ni, BLOCK=BLOCK, num_warps=4)
    _update_x[grid](q, flux, q_new, ni, BLOCK=BLOCK, num_warps=4)
    return q_new
