"""EpiHiper transmission step: infection probability of every node from its incoming contact edges (CSR by target)."""
import torch
import triton
import triton.language as tl

ROWS = 64
BLOCK_E = 16


@triton.jit
def _node_infection_prob(indptr, src, duration, weight, active, infectivity, susceptibility, prob, n, scale,
                         ROWS: tl.constexpr, BLOCK_E: tl.constexpr):
    nodes = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    node_ok = nodes < n
    start = tl.load(indptr + nodes, mask=node_ok, other=0)
    end = tl.load(indptr + nodes + 1, mask=node_ok, other=0)
    degree = end - start
    cols = tl.arange(0, BLOCK_E)
    acc = tl.zeros([ROWS, BLOCK_E], dtype=tl.float32)
    for k in range(0, tl.max(degree, axis=0), BLOCK_E):
        e = start[:, None] + k + cols[None, :]
        ok = (k + cols)[None, :] < degree[:, None]
        j = tl.load(src + e, mask=ok, other=0)
        dur = tl.load(duration + e, mask=ok, other=0.0)
        w = tl.load(weight + e, mask=ok, other=0.0)
        on = tl.load(active + e, mask=ok, other=0).to(tl.float32)
        iota = tl.load(infectivity + j, mask=ok, other=0.0)
        acc += on * dur * w * iota
    a0 = tl.load(susceptibility + nodes, mask=node_ok, other=0.0) * tl.sum(acc, axis=1)
    tl.store(prob + nodes, 1.0 - tl.exp(-scale * a0), mask=node_ok)


def run(indptr, src, duration, weight, active, infectivity, susceptibility, omega) -> torch.Tensor:
    n = indptr.shape[0] - 1
    prob = torch.empty(n, device=duration.device, dtype=duration.dtype)
    grid = (triton.cdiv(n, ROWS),)
    _node_infection_prob[grid](indptr, src, duration, weight, active, infectivity, susceptibility, prob, n,
                               omega / 86400.0, ROWS=ROWS, BLOCK_E=BLOCK_E, num_warps=4)
    return prob
