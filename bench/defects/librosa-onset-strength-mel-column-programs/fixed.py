"""Onset strength (spectral flux with a 3-band max filter) of a dB mel spectrogram, one value per frame."""
import torch
import triton
import triton.language as tl


@triton.jit
def _onset_strength(S, out, M, T, stride_b, stride_m, BLOCK_M: tl.constexpr, BLOCK_T: tl.constexpr):
    b = tl.program_id(0)
    t = tl.program_id(1) * BLOCK_T + tl.arange(0, BLOCK_T)
    m = tl.arange(0, BLOCK_M)
    t_ok = (t > 0) & (t < T)
    mask = (m < M)[:, None] & t_ok[None, :]
    base = S + b * stride_b
    m_up = tl.maximum(m - 1, 0)
    m_down = tl.minimum(m + 1, M - 1)
    cur = tl.load(base + m[:, None] * stride_m + t[None, :], mask=mask, other=0.0)
    prev = tl.load(base + m[:, None] * stride_m + (t - 1)[None, :], mask=mask, other=0.0)
    prev_up = tl.load(base + m_up[:, None] * stride_m + (t - 1)[None, :], mask=mask, other=0.0)
    prev_down = tl.load(base + m_down[:, None] * stride_m + (t - 1)[None, :], mask=mask, other=0.0)
    ref = tl.maximum(tl.maximum(prev_up, prev), prev_down)
    flux = tl.where(mask, tl.maximum(cur - ref, 0.0), 0.0)
    tl.store(out + b * T + t, tl.sum(flux, axis=0) / M, mask=t < T)


def run(S: torch.Tensor) -> torch.Tensor:
    B, M, T = S.shape
    S = S.contiguous()
    out = torch.empty(B, T, device=S.device, dtype=torch.float32)
    BLOCK_M = triton.next_power_of_2(M)
    BLOCK_T = 32
    grid = (B, triton.cdiv(T, BLOCK_T))
    _onset_strength[grid](S, out, M, T, S.stride(0), S.stride(1), BLOCK_M=BLOCK_M, BLOCK_T=BLOCK_T, num_warps=8)
    return out
