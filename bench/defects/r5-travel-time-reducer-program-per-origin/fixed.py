"""R5 TravelTimeReducer: cumulative opportunities reachable within each cutoff, per origin."""
import torch
import triton
import triton.language as tl

BLOCK = 1024
SLICES = 64


@triton.jit
def _accessibility(tt, opportunities, cutoffs, access, n_dest, n_cut, slice_len,
                   BLOCK: tl.constexpr, CUT_POW2: tl.constexpr):
    origin = tl.program_id(0)
    first = tl.program_id(1) * slice_len
    last = tl.minimum(first + slice_len, n_dest)
    c = tl.arange(0, CUT_POW2)
    cut = tl.load(cutoffs + c, mask=c < n_cut, other=0)       # padded cutoffs of 0 s count nothing
    row = tt + origin * n_dest
    acc = tl.zeros([BLOCK, CUT_POW2], dtype=tl.float32)
    for start in range(first, last, BLOCK):
        d = start + tl.arange(0, BLOCK)
        ok = d < last
        t = tl.load(row + d, mask=ok, other=2147483647)
        w = tl.load(opportunities + d, mask=ok, other=0.0)
        acc += tl.where(t[:, None] < cut[None, :], w[:, None], 0.0)
    tl.atomic_add(access + origin * n_cut + c, tl.sum(acc, axis=0), mask=c < n_cut)


def run(tt: torch.Tensor, opportunities: torch.Tensor, cutoffs: torch.Tensor) -> torch.Tensor:
    n_orig, n_dest = tt.shape
    n_cut = cutoffs.shape[0]
    slices = min(SLICES, triton.cdiv(n_dest, BLOCK))
    slice_len = triton.cdiv(triton.cdiv(n_dest, slices), BLOCK) * BLOCK
    access = torch.zeros(n_orig, n_cut, device=tt.device, dtype=torch.float32)
    _accessibility[(n_orig, triton.cdiv(n_dest, slice_len))](
        tt, opportunities, cutoffs, access, n_dest, n_cut, slice_len,
        BLOCK=BLOCK, CUT_POW2=triton.next_power_of_2(n_cut), num_warps=4)
    return access
