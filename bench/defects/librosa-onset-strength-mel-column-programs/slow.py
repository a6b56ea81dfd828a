"""Onset strength (spectral flux with a 3-band max filter) of a dB mel spectrogram, one value per frame."""
import torch
import triton
import triton.language as tl


@triton.jit
def _onset_strength(S, out, M, T, stride_b, stride_m, BLOCK_M: tl.constexpr):
    pid = tl.program_id(0)
    b = pid // T
    t = pid % T
    m = tl.arange(0, BLOCK_M)
    mask = (m < M) & (t > 0)
    base = S + b * stride_b
    m_up = tl.maximum(m - 1, 0)
    m_down = tl.minimum(m + 1, M - 1)
    cur = tl.load(base + m * stride_m + t, mask=mask, other=0.0)
    prev = tl.load(base + m * stride_m + (t - 1), mask=mask, other=0.0)
    prev_up = tl.load(base + m_up * stride_m + (t - 1), mask=mask, other=0.0)
    prev_down = tl.load(base + m_down * stride_m + (t - 1), mask=mask, other=0.0)
    ref = tl.maximum(tl.maximum(prev_up, prev), prev_down)
    flux = tl.where(mask, tl.maximum(cur - ref, 0.0), 0.0)
    tl.store(out + b * T + t, tl.sum(flux, axis=0) / M)


def run(S: torch.Tensor) -> torch.Tensor:
    B, M, T = S.shape
    S = S.contiguous()
    out = torch.empty(B, T, device=S.device, dtype=torch.float32)
    BLOCK_M = triton.next_power_of_2(M)
    _onset_strength[(B * T,)](S, out, M, T, S.stride(0), S.stride(1), BLOCK_M=BLOCK_M, num_warps=4)
    return out
