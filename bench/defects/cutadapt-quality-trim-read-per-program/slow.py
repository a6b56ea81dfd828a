"""3' quality trimming (cutadapt -q): kept length of each read, one program per read."""
import torch
import triton
import triton.language as tl

CUTOFF = 20
PHRED_BASE = 33


@triton.jit
def _trim_3p(qual, lengths, stop_out, stride_q, CUT: tl.constexpr, BASE: tl.constexpr, BLOCK: tl.constexpr):
    read = tl.program_id(0)
    pos = tl.arange(0, BLOCK)
    n = tl.load(lengths + read)
    valid = pos < n
    q = tl.load(qual + read * stride_q + pos, mask=valid, other=BASE + CUT)
    gain = CUT - (q.to(tl.int32) - BASE)
    s = tl.cumsum(gain, axis=0, reverse=True)
    brk = tl.max(tl.where(valid & (s < 0), pos, -1), axis=0)
    live = valid & (pos > brk)
    best = tl.max(tl.where(live, s, 0), axis=0)
    at = tl.max(tl.where(live & (s == best) & (s > 0), pos, -1), axis=0)
    tl.store(stop_out + read, tl.where(at >= 0, at, n))


def run(qual: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    N, L = qual.shape
    stop = torch.empty(N, device=qual.device, dtype=torch.int32)
    _trim_3p[(N,)](qual, lengths, stop, qual.stride(0), CUT=CUTOFF, BASE=PHRED_BASE,
                   BLOCK=triton.next_power_of_2(L), num_warps=4)
    return stop
