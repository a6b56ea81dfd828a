"""STFT power spectrum as a matmul with the DFT basis: each program gathers a [64, 32] tile of frames straight from
the audio and accumulates two tl.dot products with the cos / sin basis tiles (64 frames x 64 bins per program)."""
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
                      N_FFT: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_F: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_f = tl.program_id(1)
    b = tl.program_id(2)
    frames = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    bins = pid_f * BLOCK_F + tl.arange(0, BLOCK_F)
    m_mask = frames < n_frames
    f_mask = bins < n_freq
    signal = x_ptr + b * L
    re = tl.zeros([BLOCK_M, BLOCK_F], dtype=tl.float32)
    im = tl.zeros([BLOCK_M, BLOCK_F], dtype=tl.float32)
    for k0 in range(0, N_FFT, BLOCK_K):
        k = k0 + tl.arange(0, BLOCK_K)
        k_mask = k < N_FFT
        idx = _reflect(frames[:, None] * hop + k[None, :] - pad, L)
        a = tl.load(signal + idx, mask=m_mask[:, None] & k_mask[None, :], other=0.0)
        w_mask = k_mask[:, None] & f_mask[None, :]
        c = tl.load(cos_ptr + k[:, None] * n_freq + bins[None, :], mask=w_mask, other=0.0)
        sn = tl.load(sin_ptr + k[:, None] * n_freq + bins[None, :], mask=w_mask, other=0.0)
        re = tl.dot(a, c, re)
        im = tl.dot(a, sn, im)
    rows = b * n_frames + frames
    tl.store(out_ptr + rows[:, None] * n_freq + bins[None, :], re * re + im * im,
             mask=m_mask[:, None] & f_mask[None, :])


def run(audio: torch.Tensor, cos_basis: torch.Tensor, sin_basis: torch.Tensor, hop: int) -> torch.Tensor:
    B, L = audio.shape
    n_fft, n_freq = cos_basis.shape
    n_frames = 1 + L // hop
    out = torch.empty((B, n_frames, n_freq), dtype=torch.float32, device=audio.device)
    BLOCK_M, BLOCK_F, BLOCK_K = 64, 64, 32
    grid = (triton.cdiv(n_frames, BLOCK_M), triton.cdiv(n_freq, BLOCK_F), B)
    stft_power_kernel[grid](audio, cos_basis, sin_basis, out, L, n_frames, n_freq, hop, n_fft // 2,
                            N_FFT=n_fft, BLOCK_M=BLOCK_M, BLOCK_F=BLOCK_F, BLOCK_K=BLOCK_K)
    return out
