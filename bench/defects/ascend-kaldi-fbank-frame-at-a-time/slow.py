"""Kaldi fbank frame preparation on the Ascend vector cores: each program takes frames in turn,
removes the DC offset, applies pre-emphasis and the Povey window, and writes a 512-sample row."""
import torch
import triton
import triton.language as tl

VECTOR_CORES = 40  # Atlas A2 (910B): 20 AI cores x 2 AIV


@triton.jit
def _dc_preemph_window(x, x_prev, win, valid, inv_len, coeff):
    mean = tl.sum(x, axis=0) * inv_len
    y = (x - mean) - coeff * (x_prev - mean)
    return tl.where(valid, y * win, 0.0)


@triton.jit
def fbank_frames_kernel(wave_ptr, win_ptr, out_ptr, wave_len, n_frames, total_frames, coeff,
                        WIN: tl.constexpr, SHIFT: tl.constexpr, NFFT: tl.constexpr):
    pid = tl.program_id(0)
    step = tl.num_programs(0)
    n = tl.arange(0, NFFT)
    in_win = n < WIN
    win = tl.load(win_ptr + n, mask=in_win, other=0.0)
    prev_n = tl.maximum(n - 1, 0)
    for frame in range(pid, total_frames, step):
        b = frame // n_frames
        f = frame % n_frames
        src = wave_ptr + b * wave_len + f * SHIFT
        x = tl.load(src + n, mask=in_win, other=0.0)
        x_prev = tl.load(src + prev_n, mask=in_win, other=0.0)
        y = _dc_preemph_window(x, x_prev, win, in_win, 1.0 / WIN, coeff)
        tl.store(out_ptr + frame * NFFT + n, y)


def run(waveform: torch.Tensor, window: torch.Tensor) -> torch.Tensor:
    batch, wave_len = waveform.shape
    win_len, shift, nfft = window.numel(), 160, 512
    n_frames = 1 + (wave_len - win_len) // shift
    out = torch.empty((batch, n_frames, nfft), dtype=torch.float32, device=waveform.device)
    total_frames = batch * n_frames
    grid = (min(VECTOR_CORES, total_frames),)
    fbank_frames_kernel[grid](waveform, window, out, wave_len, n_frames, total_frames, 0.97,
                              WIN=win_len, SHIFT=shift, NFFT=nfft)
    return out
