"""Partition sizing of partitioned k-mer counting: k-mers per bin, bin = top bits of fmix32(code)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _bin_histogram(codes, counts, N, NBINS: tl.constexpr, LOG2_BINS: tl.constexpr,
                   BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    lanes = tl.arange(0, BLOCK)
    for blk in range(pid, tl.cdiv(N, BLOCK), nprog):
        offs = blk * BLOCK + lanes
        mask = offs < N
        h = tl.load(codes + offs, mask=mask, other=0).to(tl.uint32, bitcast=True)
        # MurmurHash3 fmix32
        h = h ^ (h >> 16)
        h = h * 0x85EBCA6B
        h = h ^ (h >> 13)
        h = h * 0xC2B2AE35
        h = h ^ (h >> 16)
        b = (h >> (32 - LOG2_BINS)).to(tl.int32)
        tl.atomic_add(counts + b, 1, mask=mask)


def run(codes: torch.Tensor, n_bins: int) -> torch.Tensor:
    (N,) = codes.shape
    counts = torch.zeros(n_bins, device=codes.device, dtype=torch.int32)
    BLOCK = 4096
    grid = (min(_VECTOR_CORES, triton.cdiv(N, BLOCK)),)
    _bin_histogram[grid](codes, counts, N, NBINS=n_bins, LOG2_BINS=n_bins.bit_length() - 1, BLOCK=BLOCK)
    return counts
