"""CLIP contrastive loss on the Ascend vector cores: row logsumexp, column logsumexp over tiles of
contiguous columns, then one program for the diagonal terms and the mean."""
import torch
import triton
import triton.language as tl

VECTOR_CORES = 40  # Atlas A2 (910B): 20 AI cores x 2 AIV


@triton.jit
def _merge_lse(m, s, x, axis: tl.constexpr):
    m_new = tl.maximum(m, tl.max(x, axis=axis))
    s = s * tl.exp(m - m_new) + tl.sum(tl.exp(x - tl.expand_dims(m_new, axis)), axis=axis)
    return m_new, s


@triton.jit
def clip_row_lse_kernel(logits_ptr, row_lse_ptr, n, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    step = tl.num_programs(0)
    for r in range(pid, n, step):
        base = logits_ptr + r * n
        m = tl.full([1], float("-inf"), tl.float32)
        s = tl.zeros([1], dtype=tl.float32)
        for c0 in range(0, n, BLOCK_N):
            cols = c0 + tl.arange(0, BLOCK_N)
            x = tl.load(base + cols, mask=cols < n, other=float("-inf"))
            m, s = _merge_lse(m, s, x[None, :], 1)
        lse = m + tl.log(s)
        tl.store(row_lse_ptr + r + tl.arange(0, 1), lse)


@triton.jit
def clip_col_lse_kernel(logits_ptr, col_lse_ptr, n, n_col_tiles, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    step = tl.num_programs(0)
    for tile in range(pid, n_col_tiles, step):
        cols = tile * BLOCK_C + tl.arange(0, BLOCK_C)
        cmask = cols < n
        m = tl.full([BLOCK_C], float("-inf"), tl.float32)
        s = tl.zeros([BLOCK_C], dtype=tl.float32)
        for r0 in range(0, n, BLOCK_R):
            rows = r0 + tl.arange(0, BLOCK_R)
            mask = (rows[:, None] < n) & cmask[None, :]
            x = tl.load(logits_ptr + rows[:, None] * n + cols[None, :], mask=mask, other=float("-inf"))
            m, s = _merge_lse(m, s, x, 0)
        tl.store(col_lse_ptr + cols, m + tl.log(s), mask=cmask)


@triton.jit
def clip_loss_finalize_kernel(logits_ptr, row_lse_ptr, col_lse_ptr, loss_ptr, n, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i0 in range(0, n, BLOCK):
        i = i0 + tl.arange(0, BLOCK)
        mask = i < n
        diag = tl.load(logits_ptr + i * (n + 1), mask=mask, other=0.0)
        row = tl.load(row_lse_ptr + i, mask=mask, other=0.0)
        col = tl.load(col_lse_ptr + i, mask=mask, other=0.0)
        acc += tl.where(mask, row + col - 2.0 * diag, 0.0)
    tl.store(loss_ptr + tl.arange(0, 1), tl.sum(acc[None, :], axis=1) / (2.0 * n))


def run(logits: torch.Tensor) -> tuple:
    n = logits.shape[0]
    row_lse = torch.empty(n, dtype=torch.float32, device=logits.device)
    col_lse = torch.empty(n, dtype=torch.float32, device=logits.device)
    loss = torch.empty(1, dtype=torch.float32, device=logits.device)
    block_n = min(4096, triton.next_power_of_2(n))
    block_r, block_c = 128, 64
    n_col_tiles = triton.cdiv(n, block_c)
    grid_rows = (min(VECTOR_CORES, n),)
    grid_cols = (min(VECTOR_CORES, n_col_tiles),)
    clip_row_lse_kernel[grid_rows](logits, row_lse, n, BLOCK_N=block_n)
    clip_col_lse_kernel[grid_cols](logits, col_lse, n, n_col_tiles, BLOCK_R=block_r, BLOCK_C=block_c)
    clip_loss_finalize_kernel[(1,)](logits, row_lse, col_lse, loss, n, BLOCK=1024)
    return row_lse, col_lse, loss
