"""Aho-Corasick payload matching: full-matrix DFA walk over each packet's TCP payload."""
import torch
import triton
import triton.language as tl

HDR = tl.constexpr(54)


@triton.jit
def _ac_match(data, offsets, lengths, delta, out, hits):
    pkt = tl.program_id(0)
    start = tl.load(offsets + pkt) + HDR
    n = tl.load(lengths + pkt) - HDR
    state = 0
    total = 0
    for i in range(0, n):
        c = tl.load(data + start + i).to(tl.int32)
        state = tl.load(delta + state * 256 + c)
        total += tl.load(out + state)
    tl.store(hits + pkt, total)


def run(data: torch.Tensor, offsets: torch.Tensor, lengths: torch.Tensor,
        delta: torch.Tensor, out: torch.Tensor) -> torch.Tensor:
    N = offsets.shape[0]
    hits = torch.empty(N, dtype=torch.int32, device=data.device)
    _ac_match[(N,)](data, offsets, lengths, delta, out, hits)
    return hits
