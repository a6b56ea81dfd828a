"""3' quality trimming (cutadapt -q): kept length of each read, reads tiled several per program."""
import torch
import triton
import triton.language as tl

CUTOFF = 20
PHRED_BASE = 33


@triton.jit
def _trim_3p(qual, lengths, stop_out, n_reads, stride_q,
             CUT: tl.constexpr, BASE: tl.constexpr, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    pos = tl.arange(0, BLOCK)
    n = tl.load(lengths + rows, mask=rows < n_reads, other=0)
    valid = pos[None, :] < n[:, None]
    q = tl.load(qual + rows[:, None] * stride_q + pos[None, :], mask=valid, other=BASE + CUT)
    gain = CUT - (q.to(tl.int32) - BASE)
    s = tl.cumsum(gain, axis=1, reverse=True)
    brk = tl.max(tl.where(valid & (s < 0), pos[None, :], -1), axis=1)
    live = valid & (pos[None, :] > brk[:, None])
    best = tl.max(tl.where(live, s, 0), axis=1)
    at = tl.max(tl.where(live & (s == best[:, None]) & (s > 0), pos[None, :], -1), axis=1)
    tl.store(stop_out + rows, tl.where(at >= 0, at, n), mask=rows < n_reads)


def run(qual: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    N, L = qual.shape
    stop = torch.empty(N, device=qual.device, dtype=torch.int32)
    ROWS = 16
    _trim_3p[(triton.cdiv(N, ROWS),)](qual, lengths, stop, N, qual.stride(0),
                                      CUT=CUTOFF, BASE=PHRED_BASE, ROWS=ROWS,
                                      BLOCK=triton.next_power_of_2(L), num_warps=4)
    return stop
