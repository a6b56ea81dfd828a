"""Prophet MAP fit: gradient of the negative log posterior w.r.t. the seasonality coefficients."""
import torch
import triton
import triton.language as tl

_AI_CORES = 20
_BS = 64
_BT = 128


@triton.jit
def _beta_grad(y, yhat, X, beta, sigma_obs, sigmas, grad, S, T, F,
               BS: tl.constexpr, BT: tl.constexpr, BF: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    fo = tl.arange(0, BF)
    fmask = fo < F
    sg = tl.load(sigmas + fo, mask=fmask, other=1.0)
    inv_prior = 1.0 / (sg * sg)
    for sb in range(pid, tl.cdiv(S, BS), nprog):
        rows = sb * BS + tl.arange(0, BS)
        rmask = rows < S
        acc = tl.zeros([BS, BF], dtype=tl.float32)
        for t0 in range(0, T, BT):
            ts = t0 + tl.arange(0, BT)
            tmask = ts < T
            m2 = rmask[:, None] & tmask[None, :]
            offs = rows[:, None] * T + ts[None, :]
            r = tl.load(yhat + offs, mask=m2, other=0.0) - tl.load(y + offs, mask=m2, other=0.0)
            x = tl.load(X + ts[:, None] * F + fo[None, :], mask=tmask[:, None] & fmask[None, :], other=0.0)
            acc = tl.dot(r, x, acc)
        so = tl.load(sigma_obs + rows, mask=rmask, other=1.0)
        gofs = rows[:, None] * F + fo[None, :]
        gmask = rmask[:, None] & fmask[None, :]
        b = tl.load(beta + gofs, mask=gmask, other=0.0)
        g = acc / (so * so)[:, None] + b * inv_prior[None, :]
        tl.store(grad + gofs, g, mask=gmask)


def run(y, yhat, X, beta, sigma_obs, sigmas):
    S, T = y.shape
    F = X.shape[1]
    grad = torch.empty((S, F), device=y.device, dtype=y.dtype)
    BF = triton.next_power_of_2(F)
    grid = (min(_AI_CORES, triton.cdiv(S, _BS)),)
    _beta_grad[grid](y, yhat, X, beta, sigma_obs, sigmas, grad, S, T, F, BS=_BS, BT=_BT, BF=BF)
    return grad
