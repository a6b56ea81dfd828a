"""Comet E-value histogram: per-spectrum counts of candidate XCorr scores in 0.1-wide bins."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
HISTO_SIZE = 152


@triton.jit
def _xcorr_histogram(scores, offsets, hist, S,
                     NBINS: tl.constexpr, HB: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    lanes = tl.arange(0, BLOCK)
    bins = tl.arange(0, HB)
    for s in range(pid, S, nprog):
        start = tl.load(offsets + s)
        end = tl.load(offsets + s + 1)
        row = hist + s * NBINS
        counts = tl.zeros([HB], dtype=tl.int32)
        for i0 in range(start, end, BLOCK):
            idx = i0 + lanes
            live = idx < end
            x = tl.load(scores + idx, mask=live, other=-1.0)
            b = tl.minimum((x * 10.0 + 0.5).to(tl.int32), NBINS - 1)
            counts += tl.sum((bins[:, None] == b[None, :]).to(tl.int32), axis=1)
        tl.store(row + bins, counts, mask=bins < NBINS)


def run(scores: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    S = offsets.numel() - 1
    hist = torch.empty((S, HISTO_SIZE), device=scores.device, dtype=torch.int32)
    grid = (max(1, min(_VECTOR_CORES, S)),)
    _xcorr_histogram[grid](scores, offsets, hist, S, NBINS=HISTO_SIZE,
                           HB=triton.next_power_of_2(HISTO_SIZE), BLOCK=64)
    return hist
