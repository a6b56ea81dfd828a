"""particles' Weights for a batch of filters: normalised weights W, ESS and log-mean weight per filter."""
import torch
import triton
import triton.language as tl

BLOCK = 4096


@triton.jit
def _weights_ess(lw, W, ess, log_mean, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    src = lw + row * stride
    dst = W + row * stride
    offs0 = tl.arange(0, BLOCK)
    # online max, sum(w) and sum(w^2) over the filter's particles
    m = -float("inf")
    s1 = 0.0
    s2 = 0.0
    for start in range(0, N, BLOCK):
        offs = start + offs0
        v = tl.load(src + offs, mask=offs < N, other=-float("inf"))
        m_new = tl.maximum(m, tl.max(v, axis=0))
        scale = tl.exp(m - m_new)
        w = tl.exp(v - m_new)
        s1 = s1 * scale + tl.sum(w, axis=0)
        s2 = s2 * scale * scale + tl.sum(w * w, axis=0)
        m = m_new
    inv = 1.0 / s1
    for start in range(0, N, BLOCK):
        offs = start + offs0
        mask = offs < N
        v = tl.load(src + offs, mask=mask, other=-float("inf"))
        tl.store(dst + offs, tl.exp(v - m) * inv, mask=mask)
    tl.store(ess + row, s1 * s1 / s2)
    tl.store(log_mean + row, m + tl.log(s1 / N))


def run(lw: torch.Tensor) -> tuple:
    B, N = lw.shape
    W = torch.empty_like(lw)
    ess = torch.empty(B, device=lw.device, dtype=lw.dtype)
    log_mean = torch.empty(B, device=lw.device, dtype=lw.dtype)
    _weights_ess[(B,)](lw, W, ess, log_mean, N, lw.stride(0), BLOCK=BLOCK)
    return W, ess, log_mean
