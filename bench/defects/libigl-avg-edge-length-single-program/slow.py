"""Mean / min / max length of a mesh's unique edges (igl::avg_edge_length plus the extremes)."""
import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _edge_length_stats(V, E, stats, n_edges, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc_sum = tl.zeros([BLOCK], dtype=tl.float32)
    acc_min = tl.full([BLOCK], float("inf"), dtype=tl.float32)
    acc_max = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_edges, BLOCK):
        e = start + offs
        ok = e < n_edges
        a = tl.load(E + 2 * e, mask=ok, other=0)
        b = tl.load(E + 2 * e + 1, mask=ok, other=0)
        dx = tl.load(V + 3 * a, mask=ok, other=0.0) - tl.load(V + 3 * b, mask=ok, other=0.0)
        dy = tl.load(V + 3 * a + 1, mask=ok, other=0.0) - tl.load(V + 3 * b + 1, mask=ok, other=0.0)
        dz = tl.load(V + 3 * a + 2, mask=ok, other=0.0) - tl.load(V + 3 * b + 2, mask=ok, other=0.0)
        length = tl.sqrt(dx * dx + dy * dy + dz * dz)
        acc_sum += length
        acc_min = tl.minimum(acc_min, tl.where(ok, length, float("inf")))
        acc_max = tl.maximum(acc_max, length)
    tl.store(stats, tl.sum(acc_sum, axis=0) / n_edges)
    tl.store(stats + 1, tl.min(acc_min, axis=0))
    tl.store(stats + 2, tl.max(acc_max, axis=0))


def run(V: torch.Tensor, E: torch.Tensor) -> torch.Tensor:
    n_edges = E.shape[0]
    stats = torch.empty(3, device=V.device, dtype=torch.float32)
    # one program walks every edge, so the sums are added in a fixed order (no atomics)
    _edge_length_stats[(1,)](V, E, stats, n_edges, BLOCK=BLOCK, num_warps=4)
    return stats
