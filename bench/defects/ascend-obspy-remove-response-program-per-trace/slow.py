"""Instrument-response removal between the FFTs (ObsPy remove_response): pre_filt taper, water level, deconvolution."""
import torch
import triton
import triton.language as tl

_BF = 2048


@triton.jit
def _remove_response(xr, xi, rr, ri, yr, yi, F, df, f1, f2, f3, f4, wl_power,
                     BF: tl.constexpr):
    tr = tl.program_id(0)
    base = tr * F
    offs = tl.arange(0, BF)
    # water level of this channel: the peak |R|^2 over the whole response
    peak = tl.zeros([BF], dtype=tl.float32)
    for c0 in range(0, F, BF):
        k = c0 + offs
        m = k < F
        a = tl.load(rr + base + k, mask=m, other=0.0)
        b = tl.load(ri + base + k, mask=m, other=0.0)
        peak = tl.maximum(peak, a * a + b * b)
    swamp = tl.sqrt(tl.max(peak, axis=0) * wl_power)
    # taper * water-levelled 1 / R * X, chunk by chunk
    for c0 in range(0, F, BF):
        k = c0 + offs
        m = k < F
        a = tl.load(rr + base + k, mask=m, other=0.0)
        b = tl.load(ri + base + k, mask=m, other=0.0)
        u = tl.load(xr + base + k, mask=m, other=0.0)
        v = tl.load(xi + base + k, mask=m, other=0.0)
        f = k.to(tl.float32) * df
        lo = 0.5 - 0.5 * tl.cos(3.141592653589793 * tl.minimum(tl.maximum((f - f1) / (f2 - f1), 0.0), 1.0))
        hi = 0.5 + 0.5 * tl.cos(3.141592653589793 * tl.minimum(tl.maximum((f - f3) / (f4 - f3), 0.0), 1.0))
        taper = tl.where(f <= f2, lo, tl.where(f < f3, 1.0, hi))
        mod = tl.sqrt(a * a + b * b)
        # 1/R_wl = conj(R) / (|R| * max(|R|, swamp)); R = 0 stays 0 (its conj(R) is 0)
        g = taper / tl.maximum(mod * tl.maximum(mod, swamp), 1e-30)
        tl.store(yr + base + k, (u * a + v * b) * g, mask=m)
        tl.store(yi + base + k, (v * a - u * b) * g, mask=m)


def run(x_re, x_im, r_re, r_im, df: float, pre_filt: tuple, water_level: float) -> tuple:
    T, F = x_re.shape
    y_re = torch.empty_like(x_re)
    y_im = torch.empty_like(x_im)
    f1, f2, f3, f4 = pre_filt
    wl_power = 10.0 ** (-water_level / 10.0)
    _remove_response[(T,)](x_re, x_im, r_re, r_im, y_re, y_im, F, df, f1, f2, f3, f4, wl_power, BF=_BF)
    return y_re, y_im
