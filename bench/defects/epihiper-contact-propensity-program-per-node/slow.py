"""EpiHiper transmission step: infection probability of every node from its incoming contact edges (CSR by target)."""
import torch
import triton
import triton.language as tl

BLOCK_E = 32


@triton.jit
def _node_infection_prob(indptr, src, duration, weight, active, infectivity, susceptibility, prob, scale,
                         BLOCK_E: tl.constexpr):
    node = tl.program_id(0)
    start = tl.load(indptr + node)
    end = tl.load(indptr + node + 1)
    acc = tl.zeros([BLOCK_E], dtype=tl.float32)
    for e0 in range(start, end, BLOCK_E):
        e = e0 + tl.arange(0, BLOCK_E)
        ok = e < end
        j = tl.load(src + e, mask=ok, other=0)
        dur = tl.load(duration + e, mask=ok, other=0.0)
        w = tl.load(weight + e, mask=ok, other=0.0)
        on = tl.load(active + e, mask=ok, other=0).to(tl.float32)
        iota = tl.load(infectivity + j, mask=ok, other=0.0)
        acc += on * dur * w * iota
    a0 = tl.load(susceptibility + node) * tl.sum(acc, axis=0)
    tl.store(prob + node, 1.0 - tl.exp(-scale * a0))


def run(indptr, src, duration, weight, active, infectivity, susceptibility, omega) -> torch.Tensor:
    n = indptr.shape[0] - 1
    prob = torch.empty(n, device=duration.device, dtype=duration.dtype)
    _node_infection_prob[(n,)](indptr, src, duration, weight, active, infectivity, susceptibility, prob,
                               omega / 86400.0, BLOCK_E=BLOCK_E, num_warps=1)
    return prob
