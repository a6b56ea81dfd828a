"""LISFLOOD-FP local inertial update of the floodplain discharge across y faces (Bates et al. 2010)."""
import torch
import triton
import triton.language as tl

BLOCK = 512
G = 9.81
DEPTH_THRESH = 0.001


@triton.jit
def _floodplain_qy(h, z, n_man, qy_old, qy_new, ny, nx, dt, inv_dx,
                   G: tl.constexpr, DEPTH_THRESH: tl.constexpr, BLOCK: tl.constexpr):
    # one program per block of columns on one face row
    c = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    r = tl.program_id(1)
    face = c < nx
    inner = face & (r >= 1) & (r < ny)
    up = (r - 1) * nx + c
    dn = r * nx + c
    h0 = tl.load(h + up, mask=inner, other=0.0)
    h1 = tl.load(h + dn, mask=inner, other=0.0)
    z0 = tl.load(z + up, mask=inner, other=0.0)
    z1 = tl.load(z + dn, mask=inner, other=0.0)
    n0 = tl.load(n_man + up, mask=inner, other=0.0)
    n1 = tl.load(n_man + dn, mask=inner, other=0.0)
    q0 = tl.load(qy_old + dn, mask=face, other=0.0)
    y0 = h0 + z0
    y1 = h1 + z1
    hflow = tl.maximum(tl.maximum(y0, y1) - tl.maximum(z0, z1), 0.0)
    wet = inner & (hflow > DEPTH_THRESH)
    hf = tl.where(wet, hflow, 1.0)
    slope = (y1 - y0) * inv_dx
    nf = 0.5 * (n0 + n1)
    h73 = tl.exp(tl.log(hf) * (7.0 / 3.0))
    q = (q0 - G * dt * hf * slope) / (1.0 + G * dt * nf * nf * tl.abs(q0) / h73)
    tl.store(qy_new + dn, tl.where(wet, q, 0.0), mask=face)


def run(h: torch.Tensor, z: torch.Tensor, n: torch.Tensor, qy: torch.Tensor, dt: float, dx: float) -> torch.Tensor:
    ny, nx = h.shape
    out = torch.empty(ny + 1, nx, device=h.device, dtype=h.dtype)
    grid = (triton.cdiv(nx, BLOCK), ny + 1)
    _floodplain_qy[grid](h, z, n, qy, out, ny, nx, dt, 1.0 / dx,
                         G=G, DEPTH_THRESH=DEPTH_THRESH, BLOCK=BLOCK, num_warps=4)
    return out
