"""MOM6 tracer advection, zonal sweep (advect_x): PLM slopes, upwind face fluxes, flux-form update."""
import torch
import triton
import triton.language as tl


@triton.jit
def _wrap(i, ni):
    i = tl.where(i < 0, i + ni, i)
    return tl.where(i >= ni, i - ni, i)


@triton.jit
def _plm_slope(qm, qc, qp):
    d_max = tl.maximum(tl.maximum(qm, qp), qc) - qc
    d_min = qc - tl.minimum(tl.minimum(qm, qp), qc)
    mag = tl.minimum(tl.minimum(0.5 * tl.abs(qp - qm), 2.0 * d_max), 2.0 * d_min)
    return tl.where(qp - qm >= 0, mag, -mag)


@triton.jit
def _face_flux(c, q_w, s_w, q_e, s_e):
    return tl.where(c >= 0, c * (q_w + 0.5 * s_w * (1.0 - c)), c * (q_e - 0.5 * s_e * (1.0 + c)))


@triton.jit
def _advect_x(q, u, rdx, q_new, nj, ni, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    i = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    m = i < ni
    q_row = q + row * ni
    u_row = u + row * ni
    r = tl.load(rdx + row % nj)
    q_m2 = tl.load(q_row + _wrap(i - 2, ni), mask=m, other=0.0)
    q_m1 = tl.load(q_row + _wrap(i - 1, ni), mask=m, other=0.0)
    q_0 = tl.load(q_row + i, mask=m, other=0.0)
    q_p1 = tl.load(q_row + _wrap(i + 1, ni), mask=m, other=0.0)
    q_p2 = tl.load(q_row + _wrap(i + 2, ni), mask=m, other=0.0)
    s_m1 = _plm_slope(q_m2, q_m1, q_0)
    s_0 = _plm_slope(q_m1, q_0, q_p1)
    s_p1 = _plm_slope(q_0, q_p1, q_p2)
    c_w = tl.load(u_row + _wrap(i - 1, ni), mask=m, other=0.0) * r
    c_e = tl.load(u_row + i, mask=m, other=0.0) * r
    f_w = _face_flux(c_w, q_m1, s_m1, q_0, s_0)
    f_e = _face_flux(c_e, q_0, s_0, q_p1, s_p1)
    tl.store(q_new + row * ni + i, q_0 - (f_e - f_w), mask=m)


def run(q: torch.Tensor, u: torch.Tensor, rdx: torch.Tensor) -> torch.Tensor:
    nk, nj, ni = q.shape
    q_new = torch.empty_like(q)
    BLOCK = 512
    _advect_x[(nk * nj, triton.cdiv(ni, BLOCK))](q, u, rdx, q_new, nj, ni, BLOCK=BLOCK, num_warps=4)
    return q_new
