"""Implicit vertical diffusion (backward Euler, Thomas algorithm per column) on ICON [nlev, ncells] fields."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _vdiff_thomas(phi, kh, rdzh, rdzf, sflux, cprime, out, ncells, nlev, dt, BC: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(ncells, BC), nprog):
        cols = blk * BC + tl.arange(0, BC)
        m = cols < ncells
        # forward elimination from the model top; c' and d' of the level above stay in registers
        kd_above = dt * tl.load(kh + cols, mask=m, other=0.0) * tl.load(rdzh + cols, mask=m, other=0.0)
        sf = dt * tl.load(sflux + cols, mask=m, other=0.0)
        cp = tl.zeros([BC], dtype=tl.float32)
        dp = tl.zeros([BC], dtype=tl.float32)
        for k in range(0, nlev):
            off = k * ncells + cols
            rf = tl.load(rdzf + off, mask=m, other=1.0)
            kd_below = dt * tl.load(kh + off + ncells, mask=m, other=0.0) \
                * tl.load(rdzh + off + ncells, mask=m, other=0.0)
            lo = kd_above * rf
            up = kd_below * rf
            rhs = tl.load(phi + off, mask=m, other=0.0)
            if k == nlev - 1:
                rhs += sf * rf
            den = 1.0 + lo + up + lo * cp
            cp = -up / den
            dp = (rhs + lo * dp) / den
            tl.store(cprime + off, cp, mask=m)
            tl.store(out + off, dp, mask=m)
            kd_above = kd_below
        # back substitution from the surface, in place on the output
        x = dp
        for j in range(1, nlev):
            off = (nlev - 1 - j) * ncells + cols
            x = tl.load(out + off, mask=m, other=0.0) - tl.load(cprime + off, mask=m, other=0.0) * x
            tl.store(out + off, x, mask=m)


def run(phi, kh, rdzh, rdzf, sflux, dt):
    nlev, ncells = phi.shape
    out = torch.empty_like(phi)
    cprime = torch.empty_like(phi)
    BC = 1024
    grid = (min(_VECTOR_CORES, triton.cdiv(ncells, BC)),)
    _vdiff_thomas[grid](phi, kh, rdzh, rdzf, sflux, cprime, out, ncells, nlev, dt, BC=BC)
    return out
