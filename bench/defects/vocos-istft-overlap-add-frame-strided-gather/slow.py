"""Vocos ISTFT overlap-add: blocks of output samples, each gathering its overlapping frame taps."""
import torch
import triton
import triton.language as tl


@triton.jit
def _windowed_tap(frame_base, win_ptr, n, frame, n_frames, valid):
    ok = valid & (frame >= 0) & (frame < n_frames)
    w = tl.load(win_ptr + n)
    v = tl.load(frame_base + n * n_frames + frame, mask=ok, other=0.0)
    return v * w, tl.where(ok, w * w, 0.0)


@triton.jit
def istft_overlap_add_kernel(frames_ptr, win_ptr, out_ptr, n_frames, out_len,
                             HOP: tl.constexpr, PAD: tl.constexpr, OVERLAP: tl.constexpr,
                             BLOCK: tl.constexpr):
    b = tl.program_id(0)
    t = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    valid = t < out_len
    s = t + PAD
    last = s // HOP
    n0 = s - last * HOP
    frame_base = frames_ptr + b * (HOP * OVERLAP) * n_frames
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    env = tl.zeros((BLOCK,), dtype=tl.float32)
    for j in tl.static_range(OVERLAP):
        v, w2 = _windowed_tap(frame_base, win_ptr, n0 + j * HOP, last - j, n_frames, valid)
        acc += v
        env += w2
    env = tl.where(valid, env, 1.0)
    tl.store(out_ptr + b * out_len + t, acc / env, mask=valid)


def run(frames: torch.Tensor, window: torch.Tensor, hop: int) -> torch.Tensor:
    B, n_fft, n_frames = frames.shape
    out_len = n_frames * hop
    out = torch.empty((B, out_len), device=frames.device, dtype=frames.dtype)
    meta = dict(HOP=hop, PAD=(n_fft - hop) // 2, OVERLAP=n_fft // hop, BLOCK=1024)
    grid = (B, triton.cdiv(out_len, meta["BLOCK"]))
    istft_overlap_add_kernel[grid](frames, window, out, n_frames, out_len, **meta, num_warps=4)
    return out
