"""Overlapping frames of padded audio times the analysis window (the STFT's framing, before the DFT matmul)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _frame_window(x_ptr, w_ptr, out_ptr, B, F, L, NFFT, HOP, BF: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_fb = tl.cdiv(F, BF)
    n = tl.arange(0, BN)
    nmask = n < NFFT
    w = tl.load(w_ptr + n, mask=nmask, other=0.0)
    for blk in range(pid, B * n_fb, nprog):
        b = blk // n_fb
        f = (blk % n_fb) * BF + tl.arange(0, BF)
        mask = (f < F)[:, None] & nmask[None, :]
        x = tl.load(x_ptr + b * L + f[:, None] * HOP + n[None, :], mask=mask, other=0.0)
        tl.store(out_ptr + (b * F + f)[:, None] * NFFT + n[None, :], x * w[None, :], mask=mask)


def run(x: torch.Tensor, window: torch.Tensor) -> torch.Tensor:
    B, L = x.shape
    n_fft = window.shape[0]
    hop = n_fft // 4
    F = (L - n_fft) // hop + 1
    out = torch.empty((B, F, n_fft), device=x.device, dtype=x.dtype)
    BN = triton.next_power_of_2(n_fft)
    BF = max(1, 8192 // BN)
    grid = (min(_VECTOR_CORES, B * triton.cdiv(F, BF)),)
    _frame_window[grid](x, window, out, B, F, L, n_fft, hop, BF=BF, BN=BN)
    return out
