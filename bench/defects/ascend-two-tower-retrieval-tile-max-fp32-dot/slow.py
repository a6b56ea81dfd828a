"""Two-tower retrieval: best user-item inner product per 128-item bucket (bucket-major output)."""
import torch
import triton
import triton.language as tl

_AI_CORES = 20


@triton.jit
def _bucket_max_scores(users, items, best, U, N, NT,
                       D: tl.constexpr, BLOCK_U: tl.constexpr, BUCKET: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    ru = tl.arange(0, BLOCK_U)
    rn = tl.arange(0, BUCKET)
    d = tl.arange(0, D)
    for t in range(pid, NT, nprog):
        cols = t * BUCKET + rn
        cmask = cols < N
        it = tl.load(items + cols[:, None] * D + d[None, :], mask=cmask[:, None], other=0.0).to(tl.float32)
        for u0 in range(0, U, BLOCK_U):
            rows = u0 + ru
            rmask = rows < U
            us = tl.load(users + rows[:, None] * D + d[None, :], mask=rmask[:, None], other=0.0).to(tl.float32)
            s = tl.dot(us, tl.trans(it))
            s = tl.where(cmask[None, :], s, -float("inf"))
            tl.store(best + t * U + rows, tl.max(s, axis=1), mask=rmask)


def run(users: torch.Tensor, items: torch.Tensor) -> torch.Tensor:
    U, D = users.shape
    N = items.shape[0]
    BUCKET = 128
    NT = triton.cdiv(N, BUCKET)
    best = torch.empty((NT, U), device=users.device, dtype=torch.float32)
    BLOCK_U = 128 if U >= 128 else 16
    grid = (max(1, min(_AI_CORES, NT)),)
    _bucket_max_scores[grid](users, items, best, U, N, NT, D=D, BLOCK_U=BLOCK_U, BUCKET=BUCKET)
    return best
