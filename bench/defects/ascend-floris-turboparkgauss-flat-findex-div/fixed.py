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
    for f in range(pid, F, nprog):
        u0 = tl.load(u_init + f)
        i0 = tl.load(ti + f)
        xj = tl.load(xr + f * T + jj, mask=jm, other=0.0)
        yj = tl.load(yr + f * T + jj, mask=jm, other=0.0)
        ctj = tl.load(ct + f * T + jj, mask=jm, other=0.5)
        alpha = 1.5 * i0
        t2 = tl.sqrt(1.0 + alpha * alpha)
        beta = 0.8 * i0 / tl.sqrt(ctj)
        s1 = tl.sqrt(1.0 - ctj)
        eps = 0.25 * tl.sqrt(0.5 * (1.0 + s1) / s1)
        fac = A * i0 / beta
        for r0 in range(0, T, BI):
            ii = r0 + tl.arange(0, BI)
            im = ii < T
            xi = tl.load(xr + f * T + ii, mask=im, other=0.0)
            yi = tl.load(yr + f * T + ii, mask=im, other=0.0)
            dx = xi[:, None] - xj[None, :]
            dy = yi[:, None] - yj[None, :]
            down = (dx >= 0.001) & jm[None, :]
            x_d = tl.where(down, dx / D, 0.0)
            q = alpha + beta[None, :] * x_d
            t1 = tl.sqrt(q * q + 1.0)
            sig_d = eps[None, :] + fac[None, :] * (t1 - t2 - tl.log((t1 + 1.0) * alpha / ((t2 + 1.0) * q)))
            cc = 1.0 - tl.sqrt(tl.minimum(tl.maximum(1.0 - ctj[None, :] / (8.0 * sig_d * sig_d), 0.0), 1.0))
            sig2 = sig_d * sig_d * (D * D)
            dy2 = dy * dy
            e1 = tl.exp(-dy2 / (2.0 * sig2))
            e2 = tl.exp(-(dy2 + four_h2) / (2.0 * sig2))
            d2 = tl.where(down, cc * cc * (e1 * e1 + e2 * e2), 0.0)
            tot = tl.sum(d2, axis=1)
            tl.store(out + f * T + ii, u0 * (1.0 - tl.sqrt(tot)), mask=im)


def run(x_r, y_r, ct, u0, ti, D, hub_height, A):
    F, T = x_r.shape
    out = torch.empty((F, T), device=x_r.device, dtype=x_r.dtype)
    BJ = triton.next_power_of_2(T)
    BI = 32
    grid = (min(_VECTOR_CORES, F),)
    _turboparkgauss_sosfs[grid](x_r, y_r, ct, u0, ti, out, F, T, D, 4.0 * hub_height * hub_height, A,
                                BI=BI, BJ=BJ)
    return out
