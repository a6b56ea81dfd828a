"""3-D heat step: one program per run of an x-row; y and z from the grid, boundary rows copied."""
import torch
import triton
import triton.language as tl


@triton.jit
def _laplacian_update(c, xm, xp, ym, yp, zm, zp, alpha):
    lap = (xm + xp) + (ym + yp) + (zm + zp) - 6.0 * c
    return c + alpha * lap


@triton.jit
def heat3d_kernel(u_ptr, out_ptr, NZ, NY, NX, alpha, BLOCK_X: tl.constexpr):
    pid_x = tl.program_id(0)
    y = tl.program_id(1)
    z = tl.program_id(2)
    x = pid_x * BLOCK_X + tl.arange(0, BLOCK_X)
    m = x < NX
    plane = NY * NX
    offs = z * plane + y * NX + x
    c = tl.load(u_ptr + offs, mask=m, other=0.0)
    if (y == 0) | (y == NY - 1) | (z == 0) | (z == NZ - 1):
        tl.store(out_ptr + offs, c, mask=m)
    else:
        xm = tl.load(u_ptr + offs - 1, mask=m, other=0.0)
        xp = tl.load(u_ptr + offs + 1, mask=m, other=0.0)
        ym = tl.load(u_ptr + offs - NX, mask=m, other=0.0)
        yp = tl.load(u_ptr + offs + NX, mask=m, other=0.0)
        zm = tl.load(u_ptr + offs - plane, mask=m, other=0.0)
        zp = tl.load(u_ptr + offs + plane, mask=m, other=0.0)
        new = _laplacian_update(c, xm, xp, ym, yp, zm, zp, alpha)
        interior = (x > 0) & (x < NX - 1)
        tl.store(out_ptr + offs, tl.where(interior, new, c), mask=m)


def run(u: torch.Tensor, alpha: float) -> torch.Tensor:
    NZ, NY, NX = u.shape
    out = torch.empty_like(u)
    BLOCK_X = min(512, triton.next_power_of_2(NX))
    grid = (triton.cdiv(NX, BLOCK_X), NY, NZ)
    heat3d_kernel[grid](u, out, NZ, NY, NX, alpha, BLOCK_X=BLOCK_X, num_warps=4)
    return out
