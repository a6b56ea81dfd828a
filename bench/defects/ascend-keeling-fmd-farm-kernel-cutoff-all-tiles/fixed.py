"""UK FMD farm model (Keeling & Rohani Program 7.6): daily infection probability of every farm from the infectious farms."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
# kernel K(d2) = exp(P(log d2)), plateau below d2 = 0.0138 km^2, zero beyond 60 km
_P = (-9.2123e-5, 9.5628e-4, 3.3966e-3, -3.3687e-2, -1.30519e-1, -0.609262, -3.231772)
_PLATEAU_D2, _PLATEAU_K = 0.0138, 0.3093
_CUTOFF2 = 60.0 * 60.0


@triton.jit
def _farm_infection_prob(x, y, suscept, xi, yi, transmiss, p_out, N, M,
                         P0: tl.constexpr, P1: tl.constexpr, P2: tl.constexpr, P3: tl.constexpr,
                         P4: tl.constexpr, P5: tl.constexpr, P6: tl.constexpr,
                         PLATEAU_D2: tl.constexpr, PLATEAU_K: tl.constexpr, CUTOFF2: tl.constexpr,
                         BI: tl.constexpr, BJ: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(N, BI), nprog):
        rows = blk * BI + tl.arange(0, BI)
        rmask = rows < N
        xr = tl.load(x + rows, mask=rmask, other=0.0)
        yr = tl.load(y + rows, mask=rmask, other=0.0)
        sr = tl.load(suscept + rows, mask=rmask, other=0.0)
        # bounding box of this block of farms (padding lanes sit at the origin: the box only grows)
        ixmin = tl.min(xr, axis=0)
        ixmax = tl.max(xr, axis=0)
        iymin = tl.min(yr, axis=0)
        iymax = tl.max(yr, axis=0)
        acc = tl.zeros([BI], dtype=tl.float32)
        for j0 in range(0, M, BJ):
            cols = j0 + tl.arange(0, BJ)
            cmask = cols < M
            xc = tl.load(xi + cols, mask=cmask, other=0.0)
            yc = tl.load(yi + cols, mask=cmask, other=0.0)
            tc = tl.load(transmiss + cols, mask=cmask, other=0.0)
            # the kernel is exactly 0 beyond the cutoff: skip tiles whose boxes are farther apart
            gx = tl.maximum(tl.maximum(tl.min(xc, axis=0) - ixmax, ixmin - tl.max(xc, axis=0)), 0.0)
            gy = tl.maximum(tl.maximum(tl.min(yc, axis=0) - iymax, iymin - tl.max(yc, axis=0)), 0.0)
            if gx * gx + gy * gy <= CUTOFF2:
                dx = xr[:, None] - xc[None, :]
                dy = yr[:, None] - yc[None, :]
                d2 = dx * dx + dy * dy
                ld = tl.log(d2)
                poly = P0 * ld + P1
                poly = poly * ld + P2
                poly = poly * ld + P3
                poly = poly * ld + P4
                poly = poly * ld + P5
                poly = poly * ld + P6
                k = tl.where(d2 < PLATEAU_D2, PLATEAU_K, tl.exp(poly))
                k = tl.where(d2 > CUTOFF2, 0.0, k)
                acc += tl.sum(k * tc[None, :], axis=1)
        p = 1.0 - tl.exp(-sr * acc)
        tl.store(p_out + rows, p, mask=rmask)


def run(x, y, suscept, xi, yi, transmiss) -> torch.Tensor:
    n, m = x.shape[0], xi.shape[0]
    p = torch.empty(n, device=x.device, dtype=x.dtype)
    BI, BJ = 128, 64
    grid = (min(_VECTOR_CORES, triton.cdiv(n, BI)),)
    _farm_infection_prob[grid](x, y, suscept, xi, yi, transmiss, p, n, m, *_P,
                               PLATEAU_D2=_PLATEAU_D2, PLATEAU_K=_PLATEAU_K, CUTOFF2=_CUTOFF2,
                               BI=BI, BJ=BJ)
    return p
