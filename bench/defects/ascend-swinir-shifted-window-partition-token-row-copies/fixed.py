"""SwinIR shifted-window partition: roll by -ws/2 and gather ws x ws windows, grid of vector cores."""
import torch
import triton
import triton.language as tl

NUM_CORES = 40
WINDOW = 8
SHIFT = WINDOW // 2


@triton.jit
def _shifted_window_partition(x, out, n_rows, H, W, C, n_wh, n_ww,
                              WS: tl.constexpr, SHIFT: tl.constexpr,
                              WIN_BLOCK: tl.constexpr, BLOCK_J: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    span = WS * C                       # one window row: ws tokens, contiguous on both sides
    j = tl.arange(0, BLOCK_J)
    jmask = j < span
    wb = tl.arange(0, WIN_BLOCK)
    head = (WS - SHIFT) * C             # part of the last window that does not wrap
    for row in range(pid, n_rows, nprog):
        img = row // H
        y = row - img * H
        wh = y // WS
        r = y - wh * WS
        h = (y + SHIFT) % H
        src_row = x + (img * H + h) * W * C
        dst_row = out + ((img * n_wh + wh) * n_ww * WS * WS + r * WS) * C
        for w0 in range(0, n_ww - 1, WIN_BLOCK):
            wins = w0 + wb
            m = (wins < n_ww - 1)[:, None] & jmask[None, :]
            tile = tl.load(src_row + (wins * WS + SHIFT)[:, None] * C + j[None, :], mask=m)
            tl.store(dst_row + wins[:, None] * (WS * WS * C) + j[None, :], tile, mask=m)
        last = dst_row + (n_ww - 1) * (WS * WS * C)
        a = tl.load(src_row + (W - WS + SHIFT) * C + j, mask=j < head)
        tl.store(last + j, a, mask=j < head)
        b = tl.load(src_row + j, mask=j < span - head)
        tl.store(last + head + j, b, mask=j < span - head)


def run(x: torch.Tensor) -> torch.Tensor:
    B, H, W, C = x.shape
    n_wh, n_ww = H // WINDOW, W // WINDOW
    n_rows = B * H
    out = torch.empty((B * n_wh * n_ww, WINDOW * WINDOW, C), dtype=x.dtype, device=x.device)
    grid = (min(NUM_CORES, n_rows),)
    _shifted_window_partition[grid](x, out, n_rows, H, W, C, n_wh, n_ww, WS=WINDOW, SHIFT=SHIFT,
                                    WIN_BLOCK=8, BLOCK_J=triton.next_power_of_2(WINDOW * C))
    return out
