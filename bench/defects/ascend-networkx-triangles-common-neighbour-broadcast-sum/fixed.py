"""Per-vertex triangle counts on a dense 0/1 adjacency (NetworkX triangles / igraph adjacent triangles)."""
import torch
import triton
import triton.language as tl

_AI_CORES = 20


@triton.jit
def _triangles_kernel(adj, tri, N, stride, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for mb in range(pid, tl.cdiv(N, BM), nprog):
        rows = mb * BM + tl.arange(0, BM)
        rmask = rows < N
        t = tl.zeros([BM], dtype=tl.float32)
        for n0 in range(0, N, BN):
            cols = n0 + tl.arange(0, BN)
            cmask = cols < N
            common = tl.zeros([BM, BN], dtype=tl.float32)
            for k0 in range(0, N, BK):
                ks = k0 + tl.arange(0, BK)
                kmask = ks < N
                a = tl.load(adj + rows[:, None] * stride + ks[None, :],
                            mask=rmask[:, None] & kmask[None, :], other=0.0)
                # A is symmetric: A[k, j] = A[j, k], so the [BK, BN] tile is the column vertices' lists
                b = tl.load(adj + ks[:, None] * stride + cols[None, :],
                            mask=kmask[:, None] & cmask[None, :], other=0.0)
                # |N(i) & N(j)| = sum_k A[i, k] * A[k, j]
                common += tl.dot(a, b)
            e = tl.load(adj + rows[:, None] * stride + cols[None, :],
                        mask=rmask[:, None] & cmask[None, :], other=0.0)
            t += tl.sum(common * e.to(tl.float32), axis=1)
        tl.store(tri + rows, 0.5 * t, mask=rmask)


def run(adj: torch.Tensor) -> torch.Tensor:
    n = adj.shape[0]
    tri = torch.empty(n, device=adj.device, dtype=torch.float32)
    BM, BN, BK = 64, 128, 128
    grid = (max(1, min(_AI_CORES, triton.cdiv(n, BM))),)
    _triangles_kernel[grid](adj, tri, n, adj.stride(0), BM=BM, BN=BN, BK=BK)
    return tri
