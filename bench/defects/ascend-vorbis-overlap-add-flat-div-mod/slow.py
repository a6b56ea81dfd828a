"""Vorbis synthesis: window the IMDCT output of consecutive long blocks and overlap-add the halves."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _window_overlap_add(y, win, pcm, total, F, N, H, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    lanes = tl.arange(0, BLOCK)
    for start in range(pid * BLOCK, total, nprog * BLOCK):
        o = start + lanes
        m = o < total
        # o walks pcm[c, f, i] in order: decode (channel, frame, sample) from the flat index
        i = o % H
        r = o // H
        c = r // (F - 1)
        f = r % (F - 1)
        row = c * F + f
        prev = tl.load(y + row * N + H + i, mask=m, other=0.0)
        cur = tl.load(y + (row + 1) * N + i, mask=m, other=0.0)
        w_fall = tl.load(win + H + i, mask=m, other=0.0)
        w_rise = tl.load(win + i, mask=m, other=0.0)
        tl.store(pcm + o, prev * w_fall + cur * w_rise, mask=m)


def run(y: torch.Tensor, window: torch.Tensor) -> torch.Tensor:
    C, F, N = y.shape
    H = N // 2
    pcm = torch.empty((C, F - 1, H), device=y.device, dtype=y.dtype)
    total = C * (F - 1) * H
    BLOCK = 4096
    grid = (min(_VECTOR_CORES, triton.cdiv(total, BLOCK)),)
    _window_overlap_add[grid](y, window, pcm, total, F, N, H, BLOCK=BLOCK)
    return pcm
