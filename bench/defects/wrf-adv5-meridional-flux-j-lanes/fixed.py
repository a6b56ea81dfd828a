"""WRF advect_scalar, meridional part: 5th-order upwind-biased fluxes on v faces and their divergence."""
import torch
import triton
import triton.language as tl

BLOCK = 128


@triton.jit
def _flux5(im3, im2, im1, i0, ip1, ip2, vel):
    interp = (37.0 * (i0 + im1) - 8.0 * (ip1 + im2) + (ip2 + im3)) / 60.0
    upw = ((ip2 - im3) - 5.0 * (ip1 - im2) + 10.0 * (i0 - im1)) / 60.0
    sgn = tl.where(vel > 0.0, 1.0, tl.where(vel < 0.0, -1.0, 0.0))
    return vel * (interp - sgn * upw)


@triton.jit
def _advect_y5(q, rv, msftx, tend, ny, nz, nx, rdy, BLOCK: tl.constexpr):
    # one program: BLOCK consecutive i of row (j, k)
    k = tl.program_id(1)
    j = tl.program_id(2)
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = i < nx
    plane = nz * nx                                  # stride of one j row in (i, k, j) order
    col = k * nx + i
    qc = q + (j + 3) * plane + col                   # cell j sits at row j + 3 of q
    qm3 = tl.load(qc - 3 * plane, mask=ok, other=0.0)
    qm2 = tl.load(qc - 2 * plane, mask=ok, other=0.0)
    qm1 = tl.load(qc - plane, mask=ok, other=0.0)
    q00 = tl.load(qc, mask=ok, other=0.0)
    qp1 = tl.load(qc + plane, mask=ok, other=0.0)
    qp2 = tl.load(qc + 2 * plane, mask=ok, other=0.0)
    qp3 = tl.load(qc + 3 * plane, mask=ok, other=0.0)
    v_s = tl.load(rv + j * plane + col, mask=ok, other=0.0)          # face j   (south)
    v_n = tl.load(rv + (j + 1) * plane + col, mask=ok, other=0.0)    # face j+1 (north)
    f_s = _flux5(qm3, qm2, qm1, q00, qp1, qp2, v_s)
    f_n = _flux5(qm2, qm1, q00, qp1, qp2, qp3, v_n)
    mrdy = tl.load(msftx + j * nx + i, mask=ok, other=0.0) * rdy
    tl.store(tend + j * plane + col, -mrdy * (f_n - f_s), mask=ok)


def run(q: torch.Tensor, rv: torch.Tensor, msftx: torch.Tensor, rdy: float) -> torch.Tensor:
    _, nz, nx = q.shape
    ny = msftx.shape[0]
    tend = torch.empty(ny, nz, nx, device=q.device, dtype=q.dtype)
    grid = (triton.cdiv(nx, BLOCK), nz, ny)
    _advect_y5[grid](q, rv, msftx, tend, ny, nz, nx, rdy, BLOCK=BLOCK, num_warps=4)
    return tend
