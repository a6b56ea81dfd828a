"""Isochrone travel times by GPU Bellman-Ford: pull relaxation rounds over the reverse CSR road graph."""
import torch
import triton
import triton.language as tl

BLOCK = 256
UNREACHED = tl.constexpr(2147483647)


@triton.jit
def _init_labels(dist, origin, n_nodes, BLOCK: tl.constexpr):
    v = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(dist + v, tl.where(v == origin, 0, UNREACHED), mask=v < n_nodes)


@triton.jit
def _relax_round(row_ptr, src, secs, dist_in, dist_out, changed, rnd, n_nodes, horizon,
                 BLOCK: tl.constexpr):
    v = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = v < n_nodes
    first = tl.load(row_ptr + v, mask=ok, other=0)
    end = tl.load(row_ptr + v + 1, mask=ok, other=0)
    old = tl.load(dist_in + v, mask=ok, other=UNREACHED)
    best = old
    for k in range(0, tl.max(end - first, axis=0)):
        e = first + k
        has = e < end
        u = tl.load(src + e, mask=has, other=0)
        du = tl.load(dist_in + u, mask=has, other=UNREACHED)
        t = tl.load(secs + e, mask=has, other=0)
        cand = tl.minimum(du, horizon) + t
        best = tl.where((du <= horizon) & (cand <= horizon), tl.minimum(best, cand), best)
    tl.store(dist_out + v, best, mask=ok)
    if tl.max((best < old).to(tl.int32), axis=0) > 0:
        tl.store(changed + rnd, 1)


def run(row_ptr: torch.Tensor, src: torch.Tensor, secs: torch.Tensor, origin: int, horizon: int) -> torch.Tensor:
    n = row_ptr.shape[0] - 1
    grid = (triton.cdiv(n, BLOCK),)
    cur = torch.empty(n, device=src.device, dtype=torch.int32)
    nxt = torch.empty(n, device=src.device, dtype=torch.int32)
    changed = torch.zeros(n, device=src.device, dtype=torch.int32)   # changed[r]: round r lowered a label
    _init_labels[grid](cur, origin, n, BLOCK=BLOCK)
    for rnd in range(n):
        _relax_round[grid](row_ptr, src, secs, cur, nxt, changed, rnd, n, horizon, BLOCK=BLOCK, num_warps=4)
        cur, nxt = nxt, cur
        if changed[rnd].item() == 0:
            break
    return cur
