"""Vorbis synthesis: window the IMDCT output of consecutive long blocks and overlap-add the halves."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _window_overlap_add(y, win, pcm, C, F, N, H, BF: tl.constexpr, BH: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BH)
    cmask = cols < H
    n_fb = tl.cdiv(F - 1, BF)
    for t in range(pid, C * n_fb, nprog):
        # one tile = BF consecutive output frames of one channel, each a whole contiguous half block
        c = t // n_fb
        f = (t % n_fb) * BF + tl.arange(0, BF)
        fmask = f < F - 1
        row = c * F + f
        m = fmask[:, None] & cmask[None, :]
        prev = tl.load(y + row[:, None] * N + H + cols[None, :], mask=m, other=0.0)
        cur = tl.load(y + (row[:, None] + 1) * N + cols[None, :], mask=m, other=0.0)
        w_fall = tl.load(win + H + cols, mask=cmask, other=0.0)
        w_rise = tl.load(win + cols, mask=cmask, other=0.0)
        out = prev * w_fall[None, :] + cur * w_rise[None, :]
        tl.store(pcm + (c * (F - 1) + f)[:, None] * H + cols[None, :], out, mask=m)


def run(y: torch.Tensor, window: torch.Tensor) -> torch.Tensor:
    C, F, N = y.shape
    H = N // 2
    pcm = torch.empty((C, F - 1, H), device=y.device, dtype=y.dtype)
    BH = triton.next_power_of_2(H)
    BF = max(1, 4096 // BH)
    grid = (min(_VECTOR_CORES, C * triton.cdiv(F - 1, BF)),)
    _window_overlap_add[grid](y, window, pcm, C, F, N, H, BF=BF, BH=BH)
    return pcm
