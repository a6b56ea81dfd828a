"""Diffusion-tensor maps FA, ADC, AD, RD from the 6-volume tensor image (MRtrix3 tensor2metric)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK = 1024
FA, ADC, AD, RD = 0, 1, 2, 3


@triton.jit
def _acos(x):
    # Abramowitz & Stegun 4.4.46: acos(|x|) = sqrt(1 - |x|) * poly(|x|), |error| <= 2e-8
    ax = tl.abs(x)
    p = -0.0012624911 * ax + 0.0066700901
    p = p * ax - 0.0170881256
    p = p * ax + 0.0308918810
    p = p * ax - 0.0501743046
    p = p * ax + 0.0889789874
    p = p * ax - 0.2145988016
    p = p * ax + 1.5707963050
    r = tl.sqrt(1.0 - ax) * p
    return tl.where(x >= 0.0, r, 3.141592653589793 - r)


@triton.jit
def _lambda1(d11, d22, d33, d12, d13, d23, q, off):
    # largest eigenvalue of the symmetric 3x3 tensor: q + 2 p cos(acos(det(B) / 2) / 3), B = (D - q I) / p
    a11 = d11 - q
    a22 = d22 - q
    a33 = d33 - q
    p = tl.sqrt((a11 * a11 + a22 * a22 + a33 * a33 + 2.0 * off) / 6.0)
    inv_p = tl.where(p > 0.0, 1.0 / tl.where(p > 0.0, p, 1.0), 0.0)
    b11 = a11 * inv_p
    b22 = a22 * inv_p
    b33 = a33 * inv_p
    b12 = d12 * inv_p
    b13 = d13 * inv_p
    b23 = d23 * inv_p
    det = b11 * (b22 * b33 - b23 * b23) - b12 * (b12 * b33 - b23 * b13) + b13 * (b12 * b23 - b22 * b13)
    r = tl.minimum(tl.maximum(0.5 * det, -1.0), 1.0)
    return q + 2.0 * p * tl.cos(_acos(r) / 3.0)


@triton.jit
def _tensor_metric(D, out, N, WHICH: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(N, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        m = offs < N
        d11 = tl.load(D + offs, mask=m, other=0.0)
        d22 = tl.load(D + N + offs, mask=m, other=0.0)
        d33 = tl.load(D + 2 * N + offs, mask=m, other=0.0)
        d12 = tl.load(D + 3 * N + offs, mask=m, other=0.0)
        d13 = tl.load(D + 4 * N + offs, mask=m, other=0.0)
        d23 = tl.load(D + 5 * N + offs, mask=m, other=0.0)
        tr = d11 + d22 + d33
        q = tr / 3.0
        off = d12 * d12 + d13 * d13 + d23 * d23
        if WHICH == 0:
            dev = (d11 - q) * (d11 - q) + (d22 - q) * (d22 - q) + (d33 - q) * (d33 - q) + 2.0 * off
            nrm = d11 * d11 + d22 * d22 + d33 * d33 + 2.0 * off
            val = tl.where(nrm > 0.0, tl.sqrt(1.5 * dev / tl.where(nrm > 0.0, nrm, 1.0)), 0.0)
        elif WHICH == 1:
            val = q
        elif WHICH == 2:
            val = _lambda1(d11, d22, d33, d12, d13, d23, q, off)
        else:
            val = 0.5 * (tr - _lambda1(d11, d22, d33, d12, d13, d23, q, off))
        tl.store(out + offs, val, mask=m)


def run(D: torch.Tensor) -> tuple:
    shape = D.shape[1:]
    N = shape.numel()
    outs = [torch.empty(shape, device=D.device, dtype=torch.float32) for _ in range(4)]
    grid = (min(_VECTOR_CORES, triton.cdiv(N, BLOCK)),)
    for which in (FA, ADC, AD, RD):
        _tensor_metric[grid](D, outs[which], N, WHICH=which, BLOCK=BLOCK)
    return tuple(outs)
