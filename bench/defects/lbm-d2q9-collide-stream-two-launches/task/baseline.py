"""D2Q9 BGK lattice-Boltzmann step: collide in registers and push each population to its neighbour."""
import torch
import triton
import triton.language as tl


@triton.jit
def _feq(rho, ux, uy, usq, cx: tl.constexpr, cy: tl.constexpr, w: tl.constexpr):
    cu = cx * ux + cy * uy
    return w * rho * (1.0 + 3.0 * cu + 4.5 * cu * cu - 1.5 * usq)


@triton.jit
def _relax(f, rho, ux, uy, usq, omega, cx: tl.constexpr, cy: tl.constexpr, w: tl.constexpr):
    return f - omega * (f - _feq(rho, ux, uy, usq, cx, cy, w))


@triton.jit
def _wrap(i, n):
    i = tl.where(i < 0, i + n, i)
    return tl.where(i >= n, i - n, i)


@triton.jit
def _push(dst_ptr, val, q: tl.constexpr, y, x, mask, NY, NX, cx: tl.constexpr, cy: tl.constexpr):
    yd = _wrap(y + cy, NY)
    xd = _wrap(x + cx, NX)
    tl.store(dst_ptr + q * NY * NX + yd * NX + xd, val, mask=mask)


@triton.jit
def lbm_step_kernel(f_ptr, out_ptr, omega, NY, NX, BLOCK_X: tl.constexpr):
    y = tl.program_id(0)
    x = tl.program_id(1) * BLOCK_X + tl.arange(0, BLOCK_X)
    mask = x < NX
    plane = NY * NX
    src = f_ptr + y * NX + x
    f0 = tl.load(src, mask=mask, other=0.0)
    f1 = tl.load(src + plane, mask=mask, other=0.0)
    f2 = tl.load(src + 2 * plane, mask=mask, other=0.0)
    f3 = tl.load(src + 3 * plane, mask=mask, other=0.0)
    f4 = tl.load(src + 4 * plane, mask=mask, other=0.0)
    f5 = tl.load(src + 5 * plane, mask=mask, other=0.0)
    f6 = tl.load(src + 6 * plane, mask=mask, other=0.0)
    f7 = tl.load(src + 7 * plane, mask=mask, other=0.0)
    f8 = tl.load(src + 8 * plane, mask=mask, other=1.0)
    rho = f0 + f1 + f2 + f3 + f4 + f5 + f6 + f7 + f8
    inv_rho = 1.0 / rho
    ux = (f1 - f3 + f5 - f6 - f7 + f8) * inv_rho
    uy = (f2 - f4 + f5 + f6 - f7 - f8) * inv_rho
    usq = ux * ux + uy * uy
    _push(out_ptr, _relax(f0, rho, ux, uy, usq, omega, 0, 0, 4.0 / 9.0), 0, y, x, mask, NY, NX, 0, 0)
    _push(out_ptr, _relax(f1, rho, ux, uy, usq, omega, 1, 0, 1.0 / 9.0), 1, y, x, mask, NY, NX, 1, 0)
    _push(out_ptr, _relax(f2, rho, ux, uy, usq, omega, 0, 1, 1.0 / 9.0), 2, y, x, mask, NY, NX, 0, 1)
    _push(out_ptr, _relax(f3, rho, ux, uy, usq, omega, -1, 0, 1.0 / 9.0), 3, y, x, mask, NY, NX, -1, 0)
    _push(out_ptr, _relax(f4, rho, ux, uy, usq, omega, 0, -1, 1.0 / 9.0), 4, y, x, mask, NY, NX, 0, -1)
    _push(out_ptr, _relax(f5, rho, ux, uy, usq, omega, 1, 1, 1.0 / 36.0), 5, y, x, mask, NY, NX, 1, 1)
    _push(out_ptr, _relax(f6, rho, ux, uy, usq, omega, -1, 1, 1.0 / 36.0), 6, y, x, mask, NY, NX, -1, 1)
    _push(out_ptr, _relax(f7, rho, ux, uy, usq, omega, -1, -1, 1.0 / 36.0), 7, y, x, mask, NY, NX, -1, -1)
    _push(out_ptr, _relax(f8, rho, ux, uy, usq, omega, 1, -1, 1.0 / 36.0), 8, y, x, mask, NY, NX, 1, -1)


def run(f: torch.Tensor, omega: float) -> torch.Tensor:
    _, NY, NX = f.shape
    out = torch.empty_like(f)
    BLOCK_X = min(1024, triton.next_power_of_2(NX))
    grid = (NY, triton.cdiv(NX, BLOCK_X))
    lbm_step_kernel[grid](f, out, omega, NY, NX, BLOCK_X=BLOCK_X, num_warps=4)
    return out
