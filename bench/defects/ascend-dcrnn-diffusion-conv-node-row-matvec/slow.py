"""DCRNN diffusion steps over one random-walk support: x1 = S x0, x2 = 2 S x1 - x0."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _diffuse(s, x, prev, out, N, D, alpha, beta, HAS_PREV: tl.constexpr,
             BK: tl.constexpr, BD: tl.constexpr):
    # every sensor gathers its neighbours: out[n, cols] = alpha * S[n, :] @ x[:, cols] (+ beta * prev)
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_dblk = tl.cdiv(D, BD)
    ks = tl.arange(0, BK)
    ds = tl.arange(0, BD)
    for item in range(pid, N * n_dblk, nprog):
        node = item // n_dblk
        cols = (item % n_dblk) * BD + ds
        cmask = cols < D
        acc = tl.zeros([BD], dtype=tl.float32)
        for k0 in range(0, N, BK):
            kk = k0 + ks
            kmask = kk < N
            w = tl.load(s + node * N + kk, mask=kmask, other=0.0)
            xt = tl.load(x + kk[:, None] * D + cols[None, :], mask=kmask[:, None] & cmask[None, :], other=0.0)
            acc += tl.sum(w[:, None] * xt, axis=0)
        y = alpha * acc
        if HAS_PREV:
            y += beta * tl.load(prev + node * D + cols, mask=cmask, other=0.0)
        tl.store(out + node * D + cols, y, mask=cmask)


def run(support: torch.Tensor, x0: torch.Tensor) -> torch.Tensor:
    N, D = x0.shape
    out = torch.empty((2, N, D), device=x0.device, dtype=x0.dtype)
    BK, BD = 32, 256
    grid = (min(_VECTOR_CORES, N * triton.cdiv(D, BD)),)
    _diffuse[grid](support, x0, x0, out[0], N, D, 1.0, 0.0, HAS_PREV=False, BK=BK, BD=BD)
    _diffuse[grid](support, out[0], x0, out[1], N, D, 2.0, -1.0, HAS_PREV=True, BK=BK, BD=BD)
    return out
