"""Aho-Corasick payload matching: full-matrix DFA walk over each packet's TCP payload."""
import torch
import triton
import triton.language as tl

HDR = tl.constexpr(54)


@triton.jit
def _ac_match(data, offsets, lengths, delta, out, hits, N, BLOCK_P: tl.constexpr):
    pkts = tl.program_id(0) * BLOCK_P + tl.arange(0, BLOCK_P)
    live = pkts < N
    start = tl.load(offsets + pkts, mask=live, other=0) + HDR
    n = tl.load(lengths + pkts, mask=live, other=HDR) - HDR
    state = tl.zeros([BLOCK_P], dtype=tl.int32)
    total = tl.zeros([BLOCK_P], dtype=tl.int32)
    for i in range(0, tl.max(n, axis=0)):
        act = i < n
        c = tl.load(data + start + i, mask=act, other=0).to(tl.int32)
        state = tl.load(delta + state * 256 + c, mask=act, other=0)
        total += tl.load(out + state, mask=act, other=0)
    tl.store(hits + pkts, total, mask=live)


def run(data: torch.Tensor, offsets: torch.Tensor, lengths: torch.Tensor,
        delta: torch.Tensor, out: torch.Tensor) -> torch.Tensor:
    N = offsets.shape[0]
    hits = torch.empty(N, dtype=torch.int32, device=data.device)
    BLOCK_P = 32
    _ac_match[(triton.cdiv(N, BLOCK_P),)](data, offsets, lengths, delta, out, hits, N,
                                          BLOCK_P=BLOCK_P, num_warps=1)
    return hits
