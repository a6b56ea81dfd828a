"""Mean / min / max length of a mesh's unique edges (igl::avg_edge_length plus the extremes)."""
import torch
import triton
import triton.language as tl

BLOCK = 1024
TILES_PER_PROGRAM = 8


@triton.jit
def _edge_length_partials(V, E, part_sum, part_min, part_max, n_edges,
                          BLOCK: tl.constexpr, TILES_PER_PROGRAM: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    acc_sum = tl.zeros([BLOCK], dtype=tl.float32)
    acc_min = tl.full([BLOCK], float("inf"), dtype=tl.float32)
    acc_max = tl.zeros([BLOCK], dtype=tl.float32)
    for t in range(TILES_PER_PROGRAM):
        e = (pid * TILES_PER_PROGRAM + t) * BLOCK + offs
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
    tl.store(part_sum + pid, tl.sum(acc_sum, axis=0))
    tl.store(part_min + pid, tl.min(acc_min, axis=0))
    tl.store(part_max + pid, tl.max(acc_max, axis=0))


@triton.jit
def _edge_length_finish(part_sum, part_min, part_max, stats, n_parts, n_edges, PBLOCK: tl.constexpr):
    offs = tl.arange(0, PBLOCK)
    acc_sum = tl.zeros([PBLOCK], dtype=tl.float32)
    acc_min = tl.full([PBLOCK], float("inf"), dtype=tl.float32)
    acc_max = tl.zeros([PBLOCK], dtype=tl.float32)
    for start in range(0, n_parts, PBLOCK):
        p = start + offs
        ok = p < n_parts
        acc_sum += tl.load(part_sum + p, mask=ok, other=0.0)
        acc_min = tl.minimum(acc_min, tl.load(part_min + p, mask=ok, other=float("inf")))
        acc_max = tl.maximum(acc_max, tl.load(part_max + p, mask=ok, other=0.0))
    tl.store(stats, tl.sum(acc_sum, axis=0) / n_edges)
    tl.store(stats + 1, tl.min(acc_min, axis=0))
    tl.store(stats + 2, tl.max(acc_max, axis=0))


def run(V: torch.Tensor, E: torch.Tensor) -> torch.Tensor:
    n_edges = E.shape[0]
    n_parts = triton.cdiv(n_edges, BLOCK * TILES_PER_PROGRAM)
    part_sum = torch.empty(n_parts, device=V.device, dtype=torch.float32)
    part_min = torch.empty(n_parts, device=V.device, dtype=torch.float32)
    part_max = torch.empty(n_parts, device=V.device, dtype=torch.float32)
    stats = torch.empty(3, device=V.device, dtype=torch.float32)
    # partials per program, summed in a fixed order by the second launch (no atomics)
    _edge_length_partials[(n_parts,)](V, E, part_sum, part_min, part_max, n_edges,
                                      BLOCK=BLOCK, TILES_PER_PROGRAM=TILES_PER_PROGRAM, num_warps=4)
    _edge_length_finish[(1,)](part_sum, part_min, part_max, stats, n_parts, n_edges,
                              PBLOCK=1024, num_warps=4)
    return stats
