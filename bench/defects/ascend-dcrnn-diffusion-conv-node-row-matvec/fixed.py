"""DCRNN diffusion steps over one random-walk support: x1 = S x0, x2 = 2 S x1 - x0."""
import torch
import triton
import triton.language as tl

_AI_CORES = 20


@triton.jit
def _diffuse(s, x, prev, out, N, D, alpha, beta, HAS_PREV: tl.constexpr,
             BM: tl.constexpr, BK: tl.constexpr, BD: tl.constexpr):
    # a block of BM sensors at a time: out[rows, cols] = alpha * S[rows, :] @ x[:, cols] (+ beta * prev)
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_dblk = tl.cdiv(D, BD)
    ms = tl.arange(0, BM)
    ks = tl.arange(0, BK)
    ds = tl.arange(0, BD)
    for item in range(pid, tl.cdiv(N, BM) * n_dblk, nprog):
        rows = (item // n_dblk) * BM + ms
        rmask = rows < N
        cols = (item % n_dblk) * BD + ds
        cmask = cols < D
        acc = tl.zeros([BM, BD], dtype=tl.float32)
        for k0 in range(0, N, BK):
            kk = k0 + ks
            kmask = kk < N
            w = tl.load(s + rows[:, None] * N + kk[None, :], mask=rmask[:, None] & kmask[None, :], other=0.0)
            xt = tl.load(x + kk[:, None] * D + cols[None, :], mask=kmask[:, None] & cmask[None, :], other=0.0)
            acc += tl.dot(w, xt)
        omask = rmask[:, None] & cmask[None, :]
        y = alpha * acc
        if HAS_PREV:
            y += beta * tl.load(prev + rows[:, None] * D + cols[None, :], mask=omask, other=0.0)
        tl.store(out + rows[:, None] * D + cols[None, :], y, mask=omask)


def run(support: torch.Tensor, x0: torch.Tensor) -> torch.Tensor:
    N, D = x0.shape
    out = torch.empty((2, N, D), device=x0.device, dtype=x0.dtype)
    BM, BK, BD = 64, 64, 128
    grid = (min(_AI_CORES, triton.cdiv(N, BM) * triton.cdiv(D, BD)),)
    _diffuse[grid](support, x0, x0, out[0], N, D, 1.0, 0.0, HAS_PREV=False, BM=BM, BK=BK, BD=BD)
    _diffuse[grid](support, out[0], x0, out[1], N, D, 2.0, -1.0, HAS_PREV=True, BM=BM, BK=BK, BD=BD)
    return out
