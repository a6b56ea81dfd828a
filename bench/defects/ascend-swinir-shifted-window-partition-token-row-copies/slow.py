"""SwinIR shifted-window partition: roll by -ws/2 and gather ws x ws windows, grid of vector cores."""
import torch
import triton
import triton.language as tl

NUM_CORES = 40
WINDOW = 8
SHIFT = WINDOW // 2


@triton.jit
def _shifted_window_partition(x, out, n_tok, H, W, C, n_ww,
                              WS: tl.constexpr, SHIFT: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BLOCK_C)
    cmask = cols < C
    for tok in range(pid, n_tok, nprog):
        img = tok // (H * W)
        rem = tok - img * (H * W)
        win = rem // (WS * WS)
        pos = rem - win * (WS * WS)
        wh = win // n_ww
        ww = win - wh * n_ww
        h = (wh * WS + pos // WS + SHIFT) % H
        w = (ww * WS + pos % WS + SHIFT) % W
        src = ((img * H + h) * W + w) * C
        row = tl.load(x + src + cols, mask=cmask)
        tl.store(out + tok * C + cols, row, mask=cmask)


def run(x: torch.Tensor) -> torch.Tensor:
    B, H, W, C = x.shape
    n_ww = W // WINDOW
    n_tok = B * H * W
    out = torch.empty((B * (H // WINDOW) * n_ww, WINDOW * WINDOW, C), dtype=x.dtype, device=x.device)
    grid = (min(NUM_CORES, n_tok),)
    _shifted_window_partition[grid](x, out, n_tok, H, W, C, n_ww,
                                    WS=WINDOW, SHIFT=SHIFT, BLOCK_C=triton.next_power_of_2(C))
    return out
