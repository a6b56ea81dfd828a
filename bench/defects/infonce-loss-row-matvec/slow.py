"""NT-Xent loss: one program per anchor, similarities of the anchor against 64-row tiles by a broadcast
multiply and a row sum, online log-sum-exp."""
import torch
import triton
import triton.language as tl


@triton.jit
def ntxent_row_kernel(z_ptr, loss_ptr, n_rows, half, inv_tau, D: tl.constexpr, BLOCK_N: tl.constexpr):
    i = tl.program_id(0)
    d = tl.arange(0, D)
    zi = tl.load(z_ptr + i * D + d).to(tl.float32)
    pos = (i + half) % n_rows
    m = float("-inf")
    l = 0.0
    s_pos = 0.0
    for j0 in range(0, n_rows, BLOCK_N):
        j = j0 + tl.arange(0, BLOCK_N)
        valid = j < n_rows
        zj = tl.load(z_ptr + j[:, None] * D + d[None, :], mask=valid[:, None], other=0.0).to(tl.float32)
        s = tl.sum(zj * zi[None, :], axis=1) * inv_tau
        s_pos += tl.sum(tl.where(j == pos, s, 0.0), axis=0)
        s = tl.where(valid & (j != i), s, float("-inf"))
        m_new = tl.maximum(m, tl.max(s, axis=0))
        l = l * tl.exp(m - m_new) + tl.sum(tl.exp(s - m_new), axis=0)
        m = m_new
    tl.store(loss_ptr + i, m + tl.log(l) - s_pos)


def run(z: torch.Tensor, tau: float) -> torch.Tensor:
    n_rows, D = z.shape
    loss = torch.empty((n_rows,), dtype=torch.float32, device=z.device)
    ntxent_row_kernel[(n_rows,)](z, loss, n_rows, n_rows // 2, 1.0 / tau, D=D, BLOCK_N=64)
    return loss
