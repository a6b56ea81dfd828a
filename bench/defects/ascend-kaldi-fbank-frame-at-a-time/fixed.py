"""Kaldi fbank frame preparation on the Ascend vector cores: each program takes tiles of frames,
removes the DC offset, applies pre-emphasis and the Povey window, and writes 512-sample rows."""
import torch
import triton
import triton.language as tl

VECTOR_CORES = 40  # Atlas A2 (910B): 20 AI cores x 2 AIV


@triton.jit
def _dc_preemph_window(x, x_prev, win, valid, inv_len, coeff):
    mean = tl.sum(x, axis=1) * inv_len
    y = (x - mean[:, None]) - coeff * (x_prev - mean[:, None])
    return tl.where(valid, y * win[None, :], 0.0)


@triton.jit
def fbank_frames_kernel(wave_ptr, win_ptr, out_ptr, wave_len, n_frames, tiles_per_utt, n_tiles, coeff,
                        WIN: tl.constexpr, SHIFT: tl.constexpr, NFFT: tl.constexpr, ROWS: tl.constexpr):
    pid = tl.program_id(0)
    step = tl.num_programs(0)
    n = tl.arange(0, NFFT)
    in_win = n < WIN
    win = tl.load(win_ptr + n, mask=in_win, other=0.0)
    prev_n = tl.maximum(n - 1, 0)
    for tile in range(pid, n_tiles, step):
        b = tile // tiles_per_utt
        f = (tile % tiles_per_utt) * ROWS + tl.arange(0, ROWS)
        valid = (f[:, None] < n_frames) & in_win[None, :]
        src = wave_ptr + b * wave_len + f[:, None] * SHIFT
        x = tl.load(src + n[None, :], mask=valid, other=0.0)
        x_prev = tl.load(src + prev_n[None, :], mask=valid, other=0.0)
        y = _dc_preemph_window(x, x_prev, win, valid, 1.0 / WIN, coeff)
        dst = out_ptr + (b * n_frames + f[:, None]) * NFFT + n[None, :]
        tl.store(dst, y, mask=f[:, None] < n_frames)


def run(waveform: torch.Tensor, window: torch.Tensor) -> torch.Tensor:
    batch, wave_len = waveform.shape
    win_len, shift, nfft = window.numel(), 160, 512
    n_frames = 1 + (wave_len - win_len) // shift
    out = torch.empty((batch, n_frames, nfft), dtype=torch.float32, device=waveform.device)
    rows = 16
    tiles_per_utt = triton.cdiv(n_frames, rows)
    n_tiles = batch * tiles_per_utt
    grid = (min(VECTOR_CORES, n_tiles),)
    fbank_frames_kernel[grid](waveform, window, out, wave_len, n_frames, tiles_per_utt, n_tiles, 0.97,
                              WIN=win_len, SHIFT=shift, NFFT=nfft, ROWS=rows)
    return out
