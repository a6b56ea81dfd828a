"""Population PSTH of spike_recorder events: time-ordered spike steps binned into 1 ms bins, then scaled to Hz."""
import torch
import triton
import triton.language as tl

BLOCK = 1024
STEP_MS = 0.1


@triton.jit
def _bin_spikes(steps, counts, n, n_bins, STEPS_PER_BIN: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    s = tl.load(steps + offs, mask=mask, other=0)
    b = s // STEPS_PER_BIN
    ok = mask & (b < n_bins)
    tl.atomic_add(counts + b, tl.full([BLOCK], 1, tl.int32), mask=ok)


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
