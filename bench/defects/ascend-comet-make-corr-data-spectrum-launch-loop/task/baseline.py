"""Comet MakeCorrData: per-window intensity normalisation of binned spectra (10 windows, max -> 50)."""
import torch
import triton
import triton.language as tl

NUM_WINDOWS = 10
_VECTOR_CORES = 40


@triton.jit
def _make_corr_data(raw, highest_bin, corr, S, B, stride_r, stride_c,
                    NWIN: tl.constexpr, BLOCK_B: tl.constexpr, WBLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BLOCK_B)
    wcols = tl.arange(0, WBLOCK)
    for s in range(pid, S, nprog):
        src = raw + s * stride_r
        dst = corr + s * stride_c
        x = tl.load(src + cols, mask=cols < B, other=0.0)
        rmax = tl.max(x, axis=0)
        scale = tl.where(rmax > 0.0, 100.0 / rmax, 1.0)
        thresh = 0.05 * (rmax * scale)
        wsize = tl.load(highest_bin + s) // NWIN + 1
        for w in range(NWIN):
            lo = w * wsize
            offs = lo + wcols
            end = tl.minimum(lo + wsize, B)
            v = tl.load(src + offs, mask=offs < end, other=0.0) * scale
            wmax = tl.max(v, axis=0)
            f = tl.where(wmax > 0.0, 50.0 / wmax, 0.0)
            y = tl.where(v > thresh, v * f, 0.0)
            tl.store(dst + offs, y, mask=offs < end)
        for t0 in range(NWIN * wsize, B, WBLOCK):
            offs = t0 + wcols
            tl.store(dst + offs, tl.zeros([WBLOCK], dtype=tl.float32), mask=offs < B)


def run(raw: torch.Tensor, highest_bin: torch.Tensor) -> torch.Tensor:
    S, B = raw.shape
    corr = torch.empty((S, B), device=raw.device, dtype=torch.float32)
    BLOCK_B = triton.next_power_of_2(B)
    WBLOCK = triton.next_power_of_2(B // NUM_WINDOWS + 1)
    grid = (max(1, min(_VECTOR_CORES, S)),)
    _make_corr_data[grid](raw, highest_bin, corr, S, B, raw.stride(0), corr.stride(0),
                          NWIN=NUM_WINDOWS, BLOCK_B=BLOCK_B, WBLOCK=WBLOCK)
    return corr
