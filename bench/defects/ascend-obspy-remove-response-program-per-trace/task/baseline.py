"""Instrument-response removal between the FFTs (ObsPy remove_response): pre_filt taper, water level, deconvolution."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_BF = 2048
_NSEG = 64


@triton.jit
def _response_peak(rr, ri, part, F, chunks_per_seg, n_items,
                   NSEG: tl.constexpr, BF: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    offs = tl.arange(0, BF)
    for item in range(pid, n_items, nprog):
        tr = item // NSEG
        seg = item % NSEG
        base = tr * F
        peak = tl.zeros([BF], dtype=tl.float32)
        start = seg * chunks_per_seg * BF
        stop = tl.minimum(start + chunks_per_seg * BF, F)
        for c0 in range(start, stop, BF):
            k = c0 + offs
            m = k < stop
            a = tl.load(rr + base + k, mask=m, other=0.0)
            b = tl.load(ri + base + k, mask=m, other=0.0)
            peak = tl.maximum(peak, a * a + b * b)
        tl.store(part + item, tl.max(peak, axis=0))


@triton.jit
def _remove_response(xr, xi, rr, ri, yr, yi, part, F, n_chunks, n_items, df, f1, f2, f3, f4, wl_power,
                     NSEG: tl.constexpr, BF: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    offs = tl.arange(0, BF)
    segs = tl.arange(0, NSEG)
    for item in range(pid, n_items, nprog):
        tr = item // n_chunks
        c0 = (item % n_chunks) * BF
        base = tr * F
        # water level of this channel from its segments' peak |R|^2
        swamp = tl.sqrt(tl.max(tl.load(part + tr * NSEG + segs), axis=0) * wl_power)
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
    n_chunks = triton.cdiv(F, _BF)
    chunks_per_seg = triton.cdiv(n_chunks, _NSEG)
    part = torch.empty((T * _NSEG,), device=x_re.device, dtype=torch.float32)
    n_peak = T * _NSEG
    _response_peak[(min(_VECTOR_CORES, n_peak),)](r_re, r_im, part, F, chunks_per_seg, n_peak,
                                                  NSEG=_NSEG, BF=_BF)
    n_items = T * n_chunks
    _remove_response[(min(_VECTOR_CORES, n_items),)](x_re, x_im, r_re, r_im, y_re, y_im, part, F, n_chunks,
                                                     n_items, df, f1, f2, f3, f4, wl_power, NSEG=_NSEG, BF=_BF)
    return y_re, y_im
