"""CMAQ implicit vertical diffusion: backward-Euler eddy-diffusion step solved per column with the Thomas algorithm."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _vdiff_implicit(conc, kz, dzf, dzh, vd, emis, out, gam, dred, NSPC, NLAY, NCOL, dt,
                    BC: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    nblk = tl.cdiv(NCOL, BC)
    for item in range(pid, NSPC * nblk, nprog):
        s = item // nblk
        cols = (item - s * nblk) * BC + tl.arange(0, BC)
        m = cols < NCOL
        cs = conc + s * NLAY * NCOL
        gs = gam + s * NLAY * NCOL
        ds = dred + s * NLAY * NCOL
        os = out + s * NLAY * NCOL
        # surface layer: emissions in, dry deposition out
        f0 = tl.load(dzf + cols, mask=m, other=1.0)
        up = dt * tl.load(kz + cols, mask=m, other=0.0) / (f0 * tl.load(dzh + cols, mask=m, other=1.0))
        diag = 1.0 + up + dt * tl.load(vd + s * NCOL + cols, mask=m, other=0.0) / f0
        rhs = tl.load(cs + cols, mask=m, other=0.0) + dt * tl.load(emis + s * NCOL + cols, mask=m, other=0.0) / f0
        tl.store(gs + cols, up / diag, mask=m)
        tl.store(ds + cols, rhs / diag, mask=m)
        # forward elimination (TRI: GAM(K) and U(K))
        for k in range(1, NLAY):
            row = k * NCOL + cols
            fk = tl.load(dzf + row, mask=m, other=1.0)
            lo = dt * tl.load(kz + row - NCOL, mask=m, other=0.0) / (fk * tl.load(dzh + row - NCOL, mask=m, other=1.0))
            up = dt * tl.load(kz + row, mask=m, other=0.0) / (fk * tl.load(dzh + row, mask=m, other=1.0))
            g_prev = tl.load(gs + row - NCOL, mask=m, other=0.0)
            d_prev = tl.load(ds + row - NCOL, mask=m, other=0.0)
            den = 1.0 + lo + up - lo * g_prev
            tl.store(gs + row, up / den, mask=m)
            tl.store(ds + row, (tl.load(cs + row, mask=m, other=0.0) + lo * d_prev) / den, mask=m)
        # back substitution from the model top down
        top = (NLAY - 1) * NCOL + cols
        tl.store(os + top, tl.load(ds + top, mask=m, other=0.0), mask=m)
        for i in range(1, NLAY):
            row = (NLAY - 1 - i) * NCOL + cols
            x_above = tl.load(os + row + NCOL, mask=m, other=0.0)
            x = tl.load(ds + row, mask=m, other=0.0) + tl.load(gs + row, mask=m, other=0.0) * x_above
            tl.store(os + row, x, mask=m)


def run(conc, kz, dzf, dzh, vd, emis, dt: float) -> torch.Tensor:
    NSPC, NLAY, NCOL = conc.shape
    out = torch.empty_like(conc)
    gam = torch.empty_like(conc)
    dred = torch.empty_like(conc)
    BC = 512
    grid = (min(_VECTOR_CORES, NSPC * triton.cdiv(NCOL, BC)),)
    _vdiff_implicit[grid](conc, kz, dzf, dzh, vd, emis, out, gam, dred, NSPC, NLAY, NCOL, dt, BC=BC)
    return out
