"""Vocos ISTFT overlap-add: [sample-in-hop, frame] output tiles, frame taps loaded along the frame axis."""
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
                             HOP_BLOCK: tl.constexpr, FRAME_BLOCK: tl.constexpr):
    b = tl.program_id(0)
    f0 = tl.program_id(1) * FRAME_BLOCK
    r = tl.arange(0, HOP_BLOCK)
    f = f0 + tl.arange(0, FRAME_BLOCK)
    shift = (r + PAD) // HOP
    n0 = (r + PAD) - shift * HOP
    valid = (r[:, None] < HOP) & (f[None, :] < n_frames)
    frame_base = frames_ptr + b * (HOP * OVERLAP) * n_frames
    acc = tl.zeros((HOP_BLOCK, FRAME_BLOCK), dtype=tl.float32)
    env = tl.zeros((HOP_BLOCK, FRAME_BLOCK), dtype=tl.float32)
    for j in tl.static_range(OVERLAP):
        n = (n0 + j * HOP)[:, None]
        frame = f[None, :] + (shift - j)[:, None]
        v, w2 = _windowed_tap(frame_base, win_ptr, n, frame, n_frames, valid)
        acc += v
        env += w2
    env = tl.where(valid, env, 1.0)
    t = f[None, :] * HOP + r[:, None]
    tl.store(out_ptr + b * out_len + t, acc / env, mask=valid)


def run(frames: torch.Tensor, window: torch.Tensor, hop: int) -> torch.Tensor:
    B, n_fft, n_frames = frames.shape
    out_len = n_frames * hop
    out = torch.empty((B, out_len), device=frames.device, dtype=frames.dtype)
    meta = dict(HOP=hop, PAD=(n_fft - hop) // 2, OVERLAP=n_fft // hop,
                HOP_BLOCK=triton.next_power_of_2(hop), FRAME_BLOCK=32)
    grid = (B, triton.cdiv(n_frames, meta["FRAME_BLOCK"]))
    istft_overlap_add_kernel[grid](frames, window, out, n_frames, out_len, **meta, num_warps=8)
    return out
