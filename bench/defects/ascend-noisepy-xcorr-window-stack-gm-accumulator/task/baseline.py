"""NoisePy frequency-domain cross-correlation: mean over kept windows of conj(source) * receiver."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BF = 2048


@triton.jit
def _xcorr_stack(s_re, s_im, x_re, x_im, keep, c_re, c_im, R, W, F, BF: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    nfb = tl.cdiv(F, BF)
    for item in range(pid, R * nfb, nprog):
        r = item // nfb
        k = (item - r * nfb) * BF + tl.arange(0, BF)
        mask = k < F
        acc_re = tl.zeros([BF], dtype=tl.float32)
        acc_im = tl.zeros([BF], dtype=tl.float32)
        cnt = 0.0
        for w in range(W):
            kw = tl.load(keep + r * W + w)
            a = tl.load(s_re + w * F + k, mask=mask, other=0.0)
            b = tl.load(s_im + w * F + k, mask=mask, other=0.0)
            c = tl.load(x_re + (r * W + w) * F + k, mask=mask, other=0.0)
            d = tl.load(x_im + (r * W + w) * F + k, mask=mask, other=0.0)
            acc_re += kw * (a * c + b * d)
            acc_im += kw * (a * d - b * c)
            cnt += kw
        inv = 1.0 / tl.maximum(cnt, 1.0)
        tl.store(c_re + r * F + k, acc_re * inv, mask=mask)
        tl.store(c_im + r * F + k, acc_im * inv, mask=mask)


def run(s_re, s_im, x_re, x_im, keep) -> tuple:
    R, W, F = x_re.shape
    c_re = torch.empty((R, F), device=x_re.device, dtype=x_re.dtype)
    c_im = torch.empty((R, F), device=x_re.device, dtype=x_re.dtype)
    grid = (min(_VECTOR_CORES, R * triton.cdiv(F, BF)),)
    _xcorr_stack[grid](s_re, s_im, x_re, x_im, keep, c_re, c_im, R, W, F, BF=BF)
    return c_re, c_im
