"""FLORIS TurbOPark-Gauss wake deficits of all turbine pairs (with ground image), SOSFS, per findex."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _turboparkgauss_sosfs(xr, yr, ct, u_init, ti, out, F, T, D, four_h2, A,
                          BI: tl.constexpr, BJ: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    jj = tl.arange(0, BJ)
    jm = jj < T
    R = F * T
    for r0 in range(pid * BI, R, nprog * BI):
        rows = r0 + tl.arange(0, BI)
        rm = rows < R
        f = rows // T
        u0 = tl.load(u_init + f, mask=rm, other=0.0)
        i0 = tl.load(ti + f, mask=rm, other=0.1)
        src = f[:, None] * T + jj[None, :]
        m2 = rm[:, None] & jm[None, :]
        xj = tl.load(xr + src, mask=m2, other=0.0)
        yj = tl.load(yr + src, mask=m2, other=0.0)
        ctj = tl.load(ct + src, mask=m2, other=0.5)
        alpha = 1.5 * i0[:, None]
        t2 = tl.sqrt(1.0 + alpha * alpha)
        beta = 0.8 * i0[:, None] / tl.sqrt(ctj)
        s1 = tl.sqrt(1.0 - ctj)
        eps = 0.25 * tl.sqrt(0.5 * (1.0 + s1) / s1)
        fac = A * i0[:, None] / beta
        xi = tl.load(xr + rows, mask=rm, other=0.0)
        yi = tl.load(yr + rows, mask=rm, other=0.0)
        dx = xi[:, None] - xj
        dy = yi[:, None] - yj
        down = (dx >= 0.001) & m2
        x_d = tl.where(down, dx / D, 0.0)
        q = alpha + beta * x_d
        t1 = tl.sqrt(q * q + 1.0)
        sig_d = eps + fac * (t1 - t2 - tl.log((t1 + 1.0) * alpha / ((t2 + 1.0) * q)))
        cc = 1.0 - tl.sqrt(tl.minimum(tl.maximum(1.0 - ctj / (8.0 * sig_d * sig_d), 0.0), 1.0))
        sig2 = sig_d * sig_d * (D * D)
        dy2 = dy * dy
        e1 = tl.exp(-dy2 / (2.0 * sig2))
        e2 = tl.exp(-(dy2 + four_h2) / (2.0 * sig2))
        d2 = tl.where(down, cc * cc * (e1 * e1 + e2 * e2), 0.0)
        tot = tl.sum(d2, axis=1)
        tl.store(out + rows, u0 * (1.0 - tl.sqrt(tot)), mask=rm)


def run(x_r, y_r, ct, u0, ti, D, hub_height, A):
    F, T = x_r.shape
    out = torch.empty((F, T), device=x_r.device, dtype=x_r.dtype)
    BJ = triton.next_power_of_2(T)
    BI = 32
    grid = (min(_VECTOR_CORES, triton.cdiv(F * T, BI)),)
    _turboparkgauss_sosfs[grid](x_r, y_r, ct, u0, ti, out, F, T, D, 4.0 * hub_height * hub_height, A,
                                BI=BI, BJ=BJ)
    return out
