"""libcamera SwStatsCpu statistics of a 10-bit BGGR frame: channel sums and a 64-bin luminance histogram."""
import torch
import triton
import triton.language as tl

BLOCK = 256      # sampled 2x2 blocks per program along a line
ROWS = 4         # sampled line pairs per program
N_BINS = 64


@triton.jit
def _bayer_stats(raw, sums, hist, n_bx, n_by, stride,
                 BLOCK: tl.constexpr, ROWS: tl.constexpr, N_BINS: tl.constexpr):
    bx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = 4 * bx                                   # every other 2x2 block
    col_ok = bx < n_bx
    acc_r = tl.zeros([BLOCK], dtype=tl.int32)
    acc_g = tl.zeros([BLOCK], dtype=tl.int32)
    acc_b = tl.zeros([BLOCK], dtype=tl.int32)
    acc_h = tl.zeros([N_BINS], dtype=tl.int32)
    for i in range(ROWS):
        by = tl.program_id(1) * ROWS + i
        ok = col_ok & (by < n_by)
        line0 = raw + (4 * by) * stride          # lines 4k and 4k + 1; 4k + 2, 4k + 3 are skipped
        line1 = line0 + stride
        b = tl.load(line0 + x, mask=ok, other=0).to(tl.int32)
        g = tl.load(line0 + x + 1, mask=ok, other=0).to(tl.int32)
        g2 = tl.load(line1 + x, mask=ok, other=0).to(tl.int32)
        r = tl.load(line1 + x + 1, mask=ok, other=0).to(tl.int32)
        g = (g + g2) // 2
        acc_r += r
        acc_g += g
        acc_b += b
        y_val = r * 77 + g * 150 + b * 29
        bins = y_val * N_BINS // (256 * 256 * 4)
        acc_h += tl.histogram(bins, N_BINS, mask=ok)
    tl.atomic_add(sums + 0, tl.sum(acc_r, axis=0).to(tl.int64))
    tl.atomic_add(sums + 1, tl.sum(acc_g, axis=0).to(tl.int64))
    tl.atomic_add(sums + 2, tl.sum(acc_b, axis=0).to(tl.int64))
    tl.atomic_add(hist + tl.arange(0, N_BINS), acc_h)


def run(raw: torch.Tensor) -> tuple:
    h, w = raw.shape[0] & ~1, raw.shape[1] & ~1
    n_by = triton.cdiv(h, 4)
    n_bx = triton.cdiv(w, 4)
    sums = torch.zeros(3, device=raw.device, dtype=torch.int64)
    hist = torch.zeros(N_BINS, device=raw.device, dtype=torch.int32)
    grid = (triton.cdiv(n_bx, BLOCK), triton.cdiv(n_by, ROWS))
    _bayer_stats[grid](raw, sums, hist, n_bx, n_by, raw.stride(0),
                       BLOCK=BLOCK, ROWS=ROWS, N_BINS=N_BINS, num_warps=4)
    return sums, hist
