"""Whisper mel filterbank for triton-ascend: a persistent grid over (example, 64-frame tile); each tile of
the power spectrogram is loaded once into UB and projected onto every mel filter in turn."""
import torch
import triton
import triton.language as tl

NUM_PROGRAMS = 40


@triton.jit
def _power_tile(power_ptr, b, t0, n_freq, n_frames, BLOCK_F: tl.constexpr, BLOCK_T: tl.constexpr):
    f = tl.arange(0, BLOCK_F)
    t = t0 + tl.arange(0, BLOCK_T)
    ptrs = power_ptr + b * n_freq * n_frames + f[:, None] * n_frames + t[None, :]
    return tl.load(ptrs, mask=(f[:, None] < n_freq) & (t[None, :] < n_frames), other=0.0)


@triton.jit
def mel_project_kernel(filters_ptr, power_ptr, out_ptr, n_mels, n_freq, n_frames, n_t_tiles, n_items,
                       NUM_PROGS: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_F: tl.constexpr,
                       BLOCK_T: tl.constexpr):
    pid = tl.program_id(0)
    f = tl.arange(0, BLOCK_F)
    for item in range(pid, n_items, NUM_PROGS):
        b = item // n_t_tiles
        t0 = (item % n_t_tiles) * BLOCK_T
        t = t0 + tl.arange(0, BLOCK_T)
        spec = _power_tile(power_ptr, b, t0, n_freq, n_frames, BLOCK_F, BLOCK_T)
        out_base = out_ptr + b * n_mels * n_frames
        for m in range(n_mels):
            w = tl.load(filters_ptr + m * n_freq + f, mask=f < n_freq, other=0.0)
            row = tl.sum(w[:, None] * spec, axis=0)
            tl.store(out_base + m * n_frames + t, row, mask=t < n_frames)


def run(filters: torch.Tensor, power: torch.Tensor) -> torch.Tensor:
    n_mels, n_freq = filters.shape
    batch, _, n_frames = power.shape
    out = torch.empty((batch, n_mels, n_frames), dtype=torch.float32, device=power.device)
    block_t = 64
    n_t_tiles = triton.cdiv(n_frames, block_t)
    n_items = batch * n_t_tiles
    num_progs = min(NUM_PROGRAMS, n_items)
    launch = dict(NUM_PROGS=num_progs, BLOCK_M=max(16, triton.next_power_of_2(n_mels)),
                  BLOCK_F=triton.next_power_of_2(n_freq), BLOCK_T=block_t)
    mel_project_kernel[(num_progs,)](filters, power, out, n_mels, n_freq, n_frames, n_t_tiles, n_items, **launch)
    return out
