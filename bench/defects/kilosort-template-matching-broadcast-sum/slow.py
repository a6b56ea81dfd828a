"""Kilosort 4 matching pursuit, first peel: Cf = relu(U @ Xp)^2 / |U|^2 per template, padding zeroed."""
import torch
import triton
import triton.language as tl

BLOCK_N = 64     # templates per program
BLOCK_T = 64     # samples per program
BLOCK_K = 16     # (channel, PC) pairs per step


@triton.jit
def _match_scores(u, xp, cf, n_templ, n_k, n_time, nt,
                  BLOCK_N: tl.constexpr, BLOCK_T: tl.constexpr, BLOCK_K: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    t = tl.program_id(1) * BLOCK_T + tl.arange(0, BLOCK_T)
    row_ok = rows < n_templ
    t_ok = t < n_time
    acc = tl.zeros([BLOCK_N, BLOCK_T], dtype=tl.float32)
    norm = tl.zeros([BLOCK_N], dtype=tl.float32)
    for k0 in range(0, n_k, BLOCK_K):
        k = k0 + tl.arange(0, BLOCK_K)
        k_ok = k < n_k
        w = tl.load(u + rows[:, None] * n_k + k[None, :], mask=row_ok[:, None] & k_ok[None, :], other=0.0)
        x = tl.load(xp + k[None, :] * n_time + t[:, None], mask=t_ok[:, None] & k_ok[None, :], other=0.0)
        acc += tl.sum(w[:, None, :] * x[None, :, :], axis=2)
        norm += tl.sum(w * w, axis=1)
    score = tl.maximum(acc, 0.0)
    score = score * score / norm[:, None]
    inside = (t >= nt) & (t < n_time - nt)
    score = tl.where(inside[None, :], score, 0.0)
    tl.store(cf + rows[:, None] * n_time + t[None, :], score, mask=row_ok[:, None] & t_ok[None, :])


def run(U: torch.Tensor, Xp: torch.Tensor, nt: int) -> torch.Tensor:
    n_templ = U.shape[0]
    n_chan, n_pc, n_time = Xp.shape
    n_k = n_chan * n_pc
    cf = torch.empty((n_templ, n_time), device=U.device, dtype=torch.float32)
    grid = (triton.cdiv(n_templ, BLOCK_N), triton.cdiv(n_time, BLOCK_T))
    _match_scores[grid](U, Xp, cf, n_templ, n_k, n_time, nt,
                        BLOCK_N=BLOCK_N, BLOCK_T=BLOCK_T, BLOCK_K=BLOCK_K, num_warps=8, num_stages=3)
    return cf
