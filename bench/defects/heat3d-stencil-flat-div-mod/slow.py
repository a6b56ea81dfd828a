"""3-D heat step: a flat grid over the field, coordinates recovered from the linear index."""
import torch
import triton
import triton.language as tl


@triton.jit
def _laplacian_update(c, xm, xp, ym, yp, zm, zp, alpha):
    lap = (xm + xp) + (ym + yp) + (zm + zp) - 6.0 * c
    return c + alpha * lap


@triton.jit
def heat3d_kernel(u_ptr, out_ptr, N, NZ, NY, NX, alpha, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < N
    plane = NY * NX
    x = offs % NX
    y = (offs // NX) % NY
    z = offs // plane
    interior = (x > 0) & (x < NX - 1) & (y > 0) & (y < NY - 1) & (z > 0) & (z < NZ - 1)
    im = m & interior
    c = tl.load(u_ptr + offs, mask=m, other=0.0)
    xm = tl.load(u_ptr + offs - 1, mask=im, other=0.0)
    xp = tl.load(u_ptr + offs + 1, mask=im, other=0.0)
    ym = tl.load(u_ptr + offs - NX, mask=im, other=0.0)
    yp = tl.load(u_ptr + offs + NX, mask=im, other=0.0)
    zm = tl.load(u_ptr + offs - plane, mask=im, other=0.0)
    zp = tl.load(u_ptr + offs + plane, mask=im, other=0.0)
    new = _laplacian_update(c, xm, xp, ym, yp, zm, zp, alpha)
    tl.store(out_ptr + offs, tl.where(interior, new, c), mask=m)


def run(u: torch.Tensor, alpha: float) -> torch.Tensor:
    NZ, NY, NX = u.shape
    N = u.numel()
    out = torch.empty_like(u)
    BLOCK = 512
    grid = (triton.cdiv(N, BLOCK),)
    heat3d_kernel[grid](u, out, N, NZ, NY, NX, alpha, BLOCK=BLOCK, num_warps=4)
    return out
