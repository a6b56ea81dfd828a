"""PyWake All2All sweep: Bastankhah Gaussian deficits of every turbine pair, SquaredSum, over the wind rose."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _bastankhah_ws_eff(x, y, wd, ws, ct, out, d, n_ws, T, D, k,
                       BI: tl.constexpr, BJ: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    jj = tl.arange(0, BJ)
    jm = jj < T
    xj = tl.load(x + jj, mask=jm, other=0.0)
    yj = tl.load(y + jj, mask=jm, other=0.0)
    th = tl.load(wd + d) * 0.017453292519943295
    sn = tl.sin(th)
    cs = tl.cos(th)
    for s in range(pid, n_ws, nprog):
        c = d * n_ws + s
        u = tl.load(ws + s)
        ctj = tl.load(ct + c * T + jj, mask=jm, other=0.0)
        s1 = tl.sqrt(1.0 - tl.minimum(ctj, 0.999))
        eps_d = 0.2 * tl.sqrt(0.5 * (1.0 + s1) / s1) * D
        for i0 in range(0, T, BI):
            ii = i0 + tl.arange(0, BI)
            im = ii < T
            xi = tl.load(x + ii, mask=im, other=0.0)
            yi = tl.load(y + ii, mask=im, other=0.0)
            dx = xi[:, None] - xj[None, :]
            dy = yi[:, None] - yj[None, :]
            dw = -(dx * sn + dy * cs)
            cw = dx * cs - dy * sn
            down = (dw > 0.0) & jm[None, :]
            sig = k * tl.maximum(dw, 0.0) + eps_d[None, :]
            sig2 = sig * sig
            rad = tl.maximum(1.0 - ctj[None, :] * (D * D) / (8.0 * sig2), 0.0)
            defi = u * (1.0 - tl.sqrt(rad)) * tl.exp(-(cw * cw) / (2.0 * sig2))
            defi = tl.where(down, defi, 0.0)
            tot = tl.sum(defi * defi, axis=1)
            tl.store(out + c * T + ii, u - tl.sqrt(tot), mask=im)


def run(x, y, wd, ws, ct, D, k):
    n_wd, n_ws, T = ct.shape
    out = torch.empty((n_wd, n_ws, T), device=ct.device, dtype=ct.dtype)
    BJ = triton.next_power_of_2(T)
    BI = 16
    grid = (min(_VECTOR_CORES, n_ws),)
    for d in range(n_wd):
        _bastankhah_ws_eff[grid](x, y, wd, ws, ct, out, d, n_ws, T, D, k, BI=BI, BJ=BJ)
    return out
