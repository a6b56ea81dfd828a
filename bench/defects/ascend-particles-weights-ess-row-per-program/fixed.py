"""particles' Weights for a batch of filters: normalised weights W, ESS and log-mean weight per filter."""
import torch
import triton
import triton.language as tl

BLOCK = 4096
_VECTOR_CORES = 40


@triton.jit
def _weights_partials(lw, pm, ps1, ps2, N, stride, CHUNK, SPLIT: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    part = tl.program_id(1)
    src = lw + row * stride
    offs0 = tl.arange(0, BLOCK)
    lo = part * CHUNK
    hi = tl.minimum(lo + CHUNK, N)
    # online max, sum(w) and sum(w^2) over this program's chunk of the filter's particles
    m = -float("inf")
    s1 = 0.0
    s2 = 0.0
    for start in range(lo, hi, BLOCK):
        offs = start + offs0
        v = tl.load(src + offs, mask=offs < hi, other=-float("inf"))
        m_new = tl.maximum(m, tl.max(v, axis=0))
        scale = tl.exp(m - m_new)
        w = tl.exp(v - m_new)
        s1 = s1 * scale + tl.sum(w, axis=0)
        s2 = s2 * scale * scale + tl.sum(w * w, axis=0)
        m = m_new
    slot = row * SPLIT + part
    tl.store(pm + slot, m)
    tl.store(ps1 + slot, s1)
    tl.store(ps2 + slot, s2)


@triton.jit
def _weights_ess(lw, W, pm, ps1, ps2, ess, log_mean, N, stride, CHUNK,
                 SPLIT: tl.constexpr, SPLIT_P2: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    part = tl.program_id(1)
    src = lw + row * stride
    dst = W + row * stride
    offs0 = tl.arange(0, BLOCK)
    # merge the row's chunk partials
    k = tl.arange(0, SPLIT_P2)
    kmask = k < SPLIT
    pms = tl.load(pm + row * SPLIT + k, mask=kmask, other=-float("inf"))
    m = tl.max(pms, axis=0)
    scale = tl.exp(pms - m)
    s1 = tl.sum(tl.load(ps1 + row * SPLIT + k, mask=kmask, other=0.0) * scale, axis=0)
    s2 = tl.sum(tl.load(ps2 + row * SPLIT + k, mask=kmask, other=0.0) * scale * scale, axis=0)
    inv = 1.0 / s1
    lo = part * CHUNK
    hi = tl.minimum(lo + CHUNK, N)
    for start in range(lo, hi, BLOCK):
        offs = start + offs0
        mask = offs < hi
        v = tl.load(src + offs, mask=mask, other=-float("inf"))
        tl.store(dst + offs, tl.exp(v - m) * inv, mask=mask)
    if part == 0:
        tl.store(ess + row, s1 * s1 / s2)
        tl.store(log_mean + row, m + tl.log(s1 / N))


def run(lw: torch.Tensor) -> tuple:
    B, N = lw.shape
    W = torch.empty_like(lw)
    ess = torch.empty(B, device=lw.device, dtype=lw.dtype)
    log_mean = torch.empty(B, device=lw.device, dtype=lw.dtype)
    # split every filter's particles so that all vector cores take a share
    split = max(1, min(triton.cdiv(_VECTOR_CORES, B), triton.cdiv(N, BLOCK)))
    chunk = triton.cdiv(triton.cdiv(N, split), BLOCK) * BLOCK
    split = triton.cdiv(N, chunk)
    pm = torch.empty(B * split, device=lw.device, dtype=torch.float32)
    ps1 = torch.empty(B * split, device=lw.device, dtype=torch.float32)
    ps2 = torch.empty(B * split, device=lw.device, dtype=torch.float32)
    grid = (B, split)
    _weights_partials[grid](lw, pm, ps1, ps2, N, lw.stride(0), chunk, SPLIT=split, BLOCK=BLOCK)
    _weights_ess[grid](lw, W, pm, ps1, ps2, ess, log_mean, N, lw.stride(0), chunk,
                       SPLIT=split, SPLIT_P2=triton.next_power_of_2(split), BLOCK=BLOCK)
    return W, ess, log_mean
