"""pytorch3d knn_points(p1, p2, K=1) for descriptor matching: squared L2 nearest neighbour and its index."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _knn1_fwd(p1, p2, dist, idx, N, P1, P2, D,
              s1n, s1p, s2n, s2p,
              BQ: tl.constexpr, BR: tl.constexpr, BD: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    dcol = tl.arange(0, BD)
    dmask = dcol < D
    rr = tl.arange(0, BR)
    for n in range(N):
        for t in range(pid, tl.cdiv(P1, BQ), nprog):
            qi = t * BQ + tl.arange(0, BQ)
            qmask = qi < P1
            q = tl.load(p1 + n * s1n + qi[:, None] * s1p + dcol[None, :],
                        mask=qmask[:, None] & dmask[None, :], other=0.0)
            qn = tl.sum(q * q, axis=1)
            best = tl.full([BQ], float("inf"), tl.float32)
            best_j = tl.zeros([BQ], tl.int32)
            for j0 in range(0, P2, BR):
                rows = j0 + rr
                rmask = rows < P2
                y = tl.load(p2 + n * s2n + rows[:, None] * s2p + dcol[None, :],
                            mask=rmask[:, None] & dmask[None, :], other=0.0)
                yn = tl.sum(y * y, axis=1)
                xy = tl.dot(q, tl.trans(y))
                d = tl.where(rows[None, :].to(tl.float32) < P2, qn[:, None] + yn[None, :] - 2.0 * xy, float("inf"))
                m = tl.min(d, axis=1)
                j = tl.min(tl.where(d == m[:, None], rows[None, :], P2), axis=1)
                better = m < best
                best_j = tl.where(better, j, best_j)
                best = tl.where(better, m, best)
            tl.store(dist + n * P1 + qi, tl.maximum(best, 0.0), mask=qmask)
            tl.store(idx + n * P1 + qi, best_j.to(tl.int64), mask=qmask)


def run(p1: torch.Tensor, p2: torch.Tensor) -> tuple:
    N, P1, D = p1.shape
    P2 = p2.shape[1]
    dist = torch.empty((N, P1), device=p1.device, dtype=p1.dtype)
    idx = torch.empty((N, P1), device=p1.device, dtype=torch.int64)
    BQ = 64
    BD = max(16, triton.next_power_of_2(D))
    grid = (min(_VECTOR_CORES, triton.cdiv(P1, BQ)),)
    _knn1_fwd[grid](p1, p2, dist, idx, N, P1, P2, D,
                    p1.stride(0), p1.stride(1), p2.stride(0), p2.stride(1),
                    BQ=BQ, BR=128, BD=BD)
    return dist, idx
