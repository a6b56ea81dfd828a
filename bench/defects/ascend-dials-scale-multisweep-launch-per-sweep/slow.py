"""Multi-sweep DIALS physical scaling model: per-sweep Gaussian-smoothed scale and decay, applied to
every reflection of the sweep."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _smoother(x, par, NPAR: tl.constexpr):
    num = tl.zeros_like(x)
    den = tl.zeros_like(x)
    for i in tl.static_range(NPAR):
        p = tl.load(par + i)
        dx = (x - (i - 0.5)) * (1.0 / 0.65)
        w = tl.exp(-dx * dx)
        num += w * p
        den += w
    return num / den


@triton.jit
def _scale_block(inten, var, phi, dsp, out_i, out_v, offs, mask, phi0, width, sp, dp,
                 NS: tl.constexpr, ND: tl.constexpr):
    ph = tl.load(phi + offs, mask=mask, other=0.0)
    d = tl.load(dsp + offs, mask=mask, other=1.0)
    u = tl.minimum(tl.maximum((ph - phi0) / width, 0.0), 1.0)
    c = _smoother(u * (NS - 2), sp, NS)
    b = _smoother(u * (ND - 2), dp, ND)
    g = c * tl.exp(b / (2.0 * d * d))
    i_obs = tl.load(inten + offs, mask=mask, other=0.0)
    v_obs = tl.load(var + offs, mask=mask, other=0.0)
    tl.store(out_i + offs, i_obs / g, mask=mask)
    tl.store(out_v + offs, v_obs / (g * g), mask=mask)


@triton.jit
def _apply_scales_sweep(inten, var, phi, dsp, out_i, out_v, phi_range, scale_par, decay_par,
                        sweep, start, n, NS: tl.constexpr, ND: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    phi0 = tl.load(phi_range + 2 * sweep)
    width = tl.load(phi_range + 2 * sweep + 1)
    sp = scale_par + sweep * NS
    dp = decay_par + sweep * ND
    for blk in range(pid, tl.cdiv(n, BLOCK), nprog):
        offs = start + blk * BLOCK + tl.arange(0, BLOCK)
        mask = offs < start + n
        _scale_block(inten, var, phi, dsp, out_i, out_v, offs, mask, phi0, width, sp, dp, NS, ND)


def run(intensity, variance, phi, d, offsets, phi_range, scale_par, decay_par) -> tuple:
    out_i = torch.empty_like(intensity)
    out_v = torch.empty_like(variance)
    S, NS = scale_par.shape
    ND = decay_par.shape[1]
    BLOCK = 1024
    bounds = offsets.tolist()
    for s in range(S):
        n = bounds[s + 1] - bounds[s]
        if n == 0:
            continue
        grid = (min(_VECTOR_CORES, triton.cdiv(n, BLOCK)),)
        _apply_scales_sweep[grid](intensity, variance, phi, d, out_i, out_v, phi_range, scale_par,
                                  decay_par, s, bounds[s], n, NS=NS, ND=ND, BLOCK=BLOCK)
    return out_i, out_v
