"""NT-Xent loss: 64 anchors per program, similarity tiles by tl.dot, online log-sum-exp per anchor."""
import torch
import triton
import triton.language as tl


@triton.jit
def ntxent_tile_kernel(z_ptr, loss_ptr, n_rows, half, inv_tau, D: tl.constexpr,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    d = tl.arange(0, D)
    row_ok = rows < n_rows
    q = tl.load(z_ptr + rows[:, None] * D + d[None, :], mask=row_ok[:, None], other=0.0)
    pos = (rows + half) % n_rows
    m = tl.full((BLOCK_M,), float("-inf"), dtype=tl.float32)
    l = tl.zeros((BLOCK_M,), dtype=tl.float32)
    s_pos = tl.zeros((BLOCK_M,), dtype=tl.float32)
    for j0 in range(0, n_rows, BLOCK_N):
        cols = j0 + tl.arange(0, BLOCK_N)
        k = tl.load(z_ptr + cols[:, None] * D + d[None, :], mask=(cols < n_rows)[:, None], other=0.0)
        s = tl.dot(q, tl.trans(k)) * inv_tau
        s_pos += tl.sum(tl.where(cols[None, :] == pos[:, None], s, 0.0), axis=1)
        s = tl.where((cols[None, :] < n_rows) & (cols[None, :] != rows[:, None]), s, float("-inf"))
        m_new = tl.maximum(m, tl.max(s, axis=1))
        p = tl.exp(s - m_new[:, None])
        l = l * tl.exp(m - m_new) + tl.sum(p, axis=1)
        m = m_new
    tl.store(loss_ptr + rows, m + tl.log(l) - s_pos, mask=row_ok)


def run(z: torch.Tensor, tau: float) -> torch.Tensor:
    n_rows, D = z.shape
    loss = torch.empty((n_rows,), dtype=torch.float32, device=z.device)
    BLOCK_M = 64
    grid = (triton.cdiv(n_rows, BLOCK_M),)
    ntxent_tile_kernel[grid](z, loss, n_rows, n_rows // 2, 1.0 / tau, D=D, BLOCK_M=BLOCK_M, BLOCK_N=64,
                             num_warps=4, num_stages=3)
    return loss
