"""Liger-style fused cross-entropy (loss and logits gradient in one kernel) for triton-ascend: one program
per vector core striding over tokens, two passes over the vocabulary per token."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40
IGNORE_INDEX = -100


@triton.jit
def _online_lse(x_row, n_cols, BLOCK_V: tl.constexpr):
    m = -float("inf")
    d = 0.0
    for start in range(0, n_cols, BLOCK_V):
        offs = start + tl.arange(0, BLOCK_V)
        x = tl.load(x_row + offs, mask=offs < n_cols, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    return m + tl.log(d)


@triton.jit
def cross_entropy_kernel(X, Y, LOSS, DX, n_rows, n_cols, ignore_index,
                         NUM_CORES: tl.constexpr, BLOCK_V: tl.constexpr):
    pid = tl.program_id(0)
    for row in range(pid, n_rows, NUM_CORES):
        x_row = X + row * n_cols
        dx_row = DX + row * n_cols
        y = tl.load(Y + row)
        if y == ignore_index:
            for start in range(0, n_cols, BLOCK_V):
                offs = start + tl.arange(0, BLOCK_V)
                tl.store(dx_row + offs, tl.zeros([BLOCK_V], dtype=tl.float32).to(DX.dtype.element_ty),
                         mask=offs < n_cols)
            tl.store(LOSS + row, 0.0)
        else:
            lse = _online_lse(x_row, n_cols, BLOCK_V)
            x_y = tl.load(x_row + y).to(tl.float32)
            for start in range(0, n_cols, BLOCK_V):
                offs = start + tl.arange(0, BLOCK_V)
                cmask = offs < n_cols
                x = tl.load(x_row + offs, mask=cmask, other=0.0).to(tl.float32)
                tl.store(dx_row + offs, tl.exp(x - lse).to(DX.dtype.element_ty), mask=cmask)
            tl.debug_barrier()
            tl.store(dx_row + y, (tl.exp(x_y - lse) - 1.0).to(DX.dtype.element_ty))
            tl.store(LOSS + row, lse - x_y)


def run(logits: torch.Tensor, target: torch.Tensor) -> tuple:
    T, V = logits.shape
    loss = torch.empty(T, dtype=torch.float32, device=logits.device)
    grad = torch.empty_like(logits)
    block_v = min(8192, triton.next_power_of_2(V))
    grid = (min(T, NUM_VECTOR_CORES),)
    cross_entropy_kernel[grid](logits, target, loss, grad, T, V, IGNORE_INDEX,
                               NUM_CORES=NUM_VECTOR_CORES, BLOCK_V=block_v)
    return loss, grad
