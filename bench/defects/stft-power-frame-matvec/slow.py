"""STFT power spectrum as a matmul with the DFT basis: one program per frame gathers its 400 samples and multiplies
them into the cos / sin basis 64 bins at a time (broadcast multiply and tl.sum over 64-sample chunks)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _reflect(i, L):
    # torch reflect padding: -1 -> 1, L -> L - 2
    i = tl.where(i < 0, -i, i)
    return tl.where(i >= L, 2 * (L - 1) - i, i)


@triton.jit
def stft_power_kernel(x_ptr, cos_ptr, sin_ptr, out_ptr, L, n_frames, n_freq, hop, pad,
                      N_FFT: tl.constexpr, BLOCK_K: tl.constexpr, BLOCK_F: tl.constexpr):
    row = tl.program_id(0)
    b = row // n_frames
    frame = row % n_frames
    signal = x_ptr + b * L
    for f0 in range(0, n_freq, BLOCK_F):
        bins = f0 + tl.arange(0, BLOCK_F)
        f_mask = bins < n_freq
        re = tl.zeros([BLOCK_F], dtype=tl.float32)
        im = tl.zeros([BLOCK_F], dtype=tl.float32)
        for k0 in range(0, N_FFT, BLOCK_K):
            k = k0 + tl.arange(0, BLOCK_K)
            k_mask = k < N_FFT
            s = tl.load(signal + _reflect(frame * hop + k - pad, L), mask=k_mask, other=0.0)
            w_mask = k_mask[:, None] & f_mask[None, :]
            c = tl.load(cos_ptr + k[:, None] * n_freq + bins[None, :], mask=w_mask, other=0.0)
            sn = tl.load(sin_ptr + k[:, None] * n_freq + bins[None, :], mask=w_mask, other=0.0)
            re += tl.sum(s[:, None] * c, axis=0)
            im += tl.sum(s[:, None] * sn, axis=0)
        tl.store(out_ptr + row * n_freq + bins, re * re + im * im, mask=f_mask)


def run(audio: torch.Tensor, cos_basis: torch.Tensor, sin_basis: torch.Tensor, hop: int) -> torch.Tensor:
    B, L = audio.shape
    n_fft, n_freq = cos_basis.shape
    n_frames = 1 + L // hop
    out = torch.empty((B, n_frames, n_freq), dtype=torch.float32, device=audio.device)
    stft_power_kernel[(B * n_frames,)](audio, cos_basis, sin_basis, out, L, n_frames, n_freq, hop, n_fft // 2,
                                       N_FFT=n_fft, BLOCK_K=64, BLOCK_F=64)
    return out
