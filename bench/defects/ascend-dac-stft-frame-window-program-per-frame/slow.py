"""Overlapping frames of padded audio times the analysis window (the STFT's framing, before the DFT matmul)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _frame_window(x_ptr, w_ptr, out_ptr, F, L, NFFT, HOP, BN: tl.constexpr):
    r = tl.program_id(0)
    b = r // F
    f = r % F
    n = tl.arange(0, BN)
    nmask = n < NFFT
    x = tl.load(x_ptr + b * L + f * HOP + n, mask=nmask, other=0.0)
    w = tl.load(w_ptr + n, mask=nmask, other=0.0)
    tl.store(out_ptr + r * NFFT + n, x * w, mask=nmask)


def run(x: torch.Tensor, window: torch.Tensor) -> torch.Tensor:
    B, L = x.shape
    n_fft = window.shape[0]
    hop = n_fft // 4
    F = (L - n_fft) // hop + 1
    out = torch.empty((B, F, n_fft), device=x.device, dtype=x.dtype)
    BN = triton.next_power_of_2(n_fft)
    _frame_window[(B * F,)](x, window, out, F, L, n_fft, hop, BN=BN)
    return out
