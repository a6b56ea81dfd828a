"""Population PSTH of spike_recorder events: time-ordered spike steps binned into 1 ms bins, then scaled to Hz."""
import torch
import triton
import triton.language as tl

BLOCK = 1024
STEP_MS = 0.1


@triton.jit
def _bin_spikes(steps, counts, n, n_bins, STEPS_PER_BIN: tl.constexpr, BLOCK: tl.constexpr):
    idx = tl.arange(0, BLOCK)
    offs = tl.program_id(0) * BLOCK + idx
    mask = offs < n
    s = tl.load(steps + offs, mask=mask, other=0)
    b = s // STEPS_PER_BIN
    ok = mask & (b < n_bins)
    # the steps are time-ordered, so equal bins form runs: a run [first, last] inside the block adds
    # last - first + 1, written as +(last + 1) at its last element and -first at its first element
    lo = b * STEPS_PER_BIN
    hi = lo + STEPS_PER_BIN
    s_prev = tl.load(steps + offs - 1, mask=mask & (offs > 0), other=0)
    s_next = tl.load(steps + offs + 1, mask=offs + 1 < n, other=0)
    first = (idx == 0) | (s_prev < lo) | (s_prev >= hi)
    last = (idx == BLOCK - 1) | (offs + 1 >= n) | (s_next < lo) | (s_next >= hi)
    delta = tl.where(last, idx + 1, 0) - tl.where(first, idx, 0)
    tl.atomic_add(counts + b, delta, mask=ok & (first | last))


@triton.jit
def _to_rate(counts, rate, n_bins, scale, BLOCK: tl.constexpr):
    k = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = k < n_bins
    c = tl.load(counts + k, mask=ok, other=0)
    tl.store(rate + k, c.to(tl.float32) * scale, mask=ok)


def run(steps: torch.Tensor, steps_per_bin: int, n_bins: int, n_neurons: int) -> tuple:
    n = steps.shape[0]
    counts = torch.zeros(n_bins, device=steps.device, dtype=torch.int32)
    rate = torch.empty(n_bins, device=steps.device, dtype=torch.float32)
    _bin_spikes[(triton.cdiv(n, BLOCK),)](steps, counts, n, n_bins, STEPS_PER_BIN=steps_per_bin,
                                          BLOCK=BLOCK, num_warps=4)
    scale = 1.0 / (n_neurons * steps_per_bin * STEP_MS * 1e-3)
    _to_rate[(triton.cdiv(n_bins, BLOCK),)](counts, rate, n_bins, scale, BLOCK=BLOCK, num_warps=4)
    return counts, rate
