"""Sliced-Wasserstein projections X @ theta, programs looping over output tiles."""
import torch
import triton
import triton.language as tl

_AI_CORES = 20


@triton.jit
def _sw_project(x, theta, out, N, D, L,
                stride_xn, stride_xd, stride_td, stride_tl, stride_on, stride_ol,
                BM: tl.constexpr, BL: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_row_blocks = tl.cdiv(N, BM)
    n_col_blocks = tl.cdiv(L, BL)
    for rb in range(pid, n_row_blocks, nprog):
        rows = rb * BM + tl.arange(0, BM)
        rmask = rows < N
        for cb in range(0, n_col_blocks):
            cols = cb * BL + tl.arange(0, BL)
            cmask = cols < L
            acc = tl.zeros([BM, BL], dtype=tl.float32)
            for k0 in range(0, D, BK):
                ks = k0 + tl.arange(0, BK)
                kmask = ks < D
                xt = tl.load(x + rows[:, None] * stride_xn + ks[None, :] * stride_xd,
                             mask=rmask[:, None] & kmask[None, :], other=0.0)
                tt = tl.load(theta + ks[:, None] * stride_td + cols[None, :] * stride_tl,
                             mask=kmask[:, None] & cmask[None, :], other=0.0)
                acc = tl.dot(xt, tt, acc)
            tl.store(out + rows[:, None] * stride_on + cols[None, :] * stride_ol, acc,
                     mask=rmask[:, None] & cmask[None, :])


def run(x: torch.Tensor, theta: torch.Tensor) -> torch.Tensor:
    N, D = x.shape
    L = theta.shape[1]
    out = torch.empty((N, L), device=x.device, dtype=torch.float32)
    BM, BL, BK = 128, 128, 32
    grid = (min(_AI_CORES, triton.cdiv(N, BM)),)
    _sw_project[grid](x, theta, out, N, D, L,
                      x.stride(0), x.stride(1), theta.stride(0), theta.stride(1),
                      out.stride(0), out.stride(1), BM=BM, BL=BL, BK=BK)
    return out
