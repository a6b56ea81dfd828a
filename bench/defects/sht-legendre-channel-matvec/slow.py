"""torch-harmonics RealSHT forward, Legendre stage: for every order m and channel, the degree
coefficients are W_m[l, k] applied to that channel's latitude column x[c, :, m]."""
import torch
import triton
import triton.language as tl


@triton.jit
def _load_spectrum(x_ptr, chan, lat, m, nlat, stride_c, stride_k, stride_m):
    offs = x_ptr + chan * stride_c + lat * stride_k + m * stride_m
    ok = lat < nlat
    re = tl.load(offs, mask=ok, other=0.0)
    im = tl.load(offs + 1, mask=ok, other=0.0)
    return re, im


@triton.jit
def sht_legendre_fwd_kernel(x_ptr, w_ptr, out_ptr, n_chan, nlat, lmax,
                            stride_xc, stride_xk, stride_xm, stride_wm, stride_wl,
                            stride_oc, stride_ol, stride_om,
                            BLOCK_L: tl.constexpr, BLOCK_K: tl.constexpr):
    m = tl.program_id(0)
    chan = tl.program_id(1)
    w_base = w_ptr + m * stride_wm
    o_base = out_ptr + chan * stride_oc + m * stride_om
    for l0 in range(0, lmax, BLOCK_L):
        deg = l0 + tl.arange(0, BLOCK_L)
        acc_re = tl.zeros([BLOCK_L], dtype=tl.float32)
        acc_im = tl.zeros([BLOCK_L], dtype=tl.float32)
        for k0 in range(0, nlat, BLOCK_K):
            lat = k0 + tl.arange(0, BLOCK_K)
            x_re, x_im = _load_spectrum(x_ptr, chan, lat, m, nlat, stride_xc, stride_xk, stride_xm)
            w = tl.load(w_base + deg[:, None] * stride_wl + lat[None, :],
                        mask=(deg[:, None] < lmax) & (lat[None, :] < nlat), other=0.0)
            acc_re += tl.sum(w * x_re[None, :], axis=1)
            acc_im += tl.sum(w * x_im[None, :], axis=1)
        ok = deg < lmax
        tl.store(o_base + deg * stride_ol, acc_re, mask=ok)
        tl.store(o_base + deg * stride_ol + 1, acc_im, mask=ok)


def run(x: torch.Tensor, weights: torch.Tensor) -> torch.Tensor:
    B, C, nlat, nfreq, _ = x.shape
    mmax, lmax, _ = weights.shape
    out = torch.empty((B, C, lmax, mmax, 2), dtype=x.dtype, device=x.device)
    xs = x.view(B * C, nlat, nfreq, 2)
    os_ = out.view(B * C, lmax, mmax, 2)
    n_chan = B * C
    BLOCK_L = max(16, min(64, triton.next_power_of_2(lmax)))
    BLOCK_K = 32
    grid = (mmax, n_chan)
    sht_legendre_fwd_kernel[grid](xs, weights, os_, n_chan, nlat, lmax,
                                  xs.stride(0), xs.stride(1), xs.stride(2), weights.stride(0), weights.stride(1),
                                  os_.stride(0), os_.stride(1), os_.stride(2),
                                  BLOCK_L=BLOCK_L, BLOCK_K=BLOCK_K, num_warps=4)
    return out
