"""Cosine distances 1 - <q, x> between spectrum query vectors and one bucket's index vectors."""
import torch
import triton
import triton.language as tl

BLOCK_M = 128
BLOCK_N = 128
BLOCK_K = 32
GROUP_M = 8


@triton.jit
def _cosine_distance(q, x, dist, m, n, D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                     BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    tiles_m = tl.cdiv(m, BLOCK_M)
    tiles_n = tl.cdiv(n, BLOCK_N)
    group = pid // (GROUP_M * tiles_n)
    first_m = group * GROUP_M
    rows_in_group = tl.minimum(tiles_m - first_m, GROUP_M)
    pid_m = first_m + (pid % (GROUP_M * tiles_n)) % rows_in_group
    pid_n = (pid % (GROUP_M * tiles_n)) // rows_in_group
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    q_ptr = q + rm[:, None] * D + rk[None, :]
    x_ptr = x + rn[:, None] * D + rk[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, D, BLOCK_K):
        a = tl.load(q_ptr, mask=rm[:, None] < m, other=0.0)
        b = tl.load(x_ptr, mask=rn[:, None] < n, other=0.0)
        acc = tl.dot(a, tl.trans(b), acc, input_precision="tf32")
        q_ptr += BLOCK_K
        x_ptr += BLOCK_K
    tl.store(dist + rm[:, None] * n + rn[None, :], 1.0 - acc, mask=(rm[:, None] < m) & (rn[None, :] < n))


def run(q: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    m, d = q.shape
    n = x.shape[0]
    assert d % BLOCK_K == 0
    dist = torch.empty((m, n), device=q.device, dtype=torch.float32)
    grid = (triton.cdiv(m, BLOCK_M) * triton.cdiv(n, BLOCK_N),)
    _cosine_distance[grid](q, x, dist, m, n, D=d, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K,
                           GROUP_M=GROUP_M, num_warps=8, num_stages=3)
    return dist
