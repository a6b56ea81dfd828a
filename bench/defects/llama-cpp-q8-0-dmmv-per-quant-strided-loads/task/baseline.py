"""Q8_0 decode mat-vec (llama.cpp dequantize_mul_mat_vec) straight from the GGUF block bytes."""
import torch
import triton
import triton.language as tl

BLOCK_N = 8    # weight rows per program
BLOCK_B = 16   # Q8_0 records per row per step


@triton.jit
def _q8_0_matvec(w_ptr, x_ptr, y_ptr, N, row_bytes, row_halves, n_blocks,
                 QK: tl.constexpr, RECORD: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_B: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_N + tl.arange(0, BLOCK_N)
    row_ok = rows < N
    qs_ptr = w_ptr.to(tl.pointer_type(tl.int8))
    d_ptr = w_ptr.to(tl.pointer_type(tl.float16))
    j = tl.arange(0, QK)
    acc = tl.zeros([BLOCK_N], dtype=tl.float32)
    for b0 in range(0, n_blocks, BLOCK_B):
        blk = b0 + tl.arange(0, BLOCK_B)
        blk_ok = blk < n_blocks
        ok = row_ok[:, None] & blk_ok[None, :]
        rec = rows[:, None] * row_bytes + blk[None, :] * RECORD          # byte offset of each record
        d = tl.load(d_ptr + rows[:, None] * row_halves + blk[None, :] * (RECORD // 2),
                    mask=ok, other=0.0).to(tl.float32)
        q = tl.load(qs_ptr + rec[:, :, None] + 2 + j[None, None, :],
                    mask=ok[:, :, None], other=0).to(tl.float32)      # whole records: 32 contiguous bytes
        xb = tl.load(x_ptr + blk[:, None] * QK + j[None, :], mask=blk_ok[:, None], other=0.0)
        part = tl.sum(q * xb[None, :, :], axis=2)
        acc += tl.sum(part * d, axis=1)
    tl.store(y_ptr + rows, acc, mask=row_ok)


def run(w_q8: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    n, row_bytes = w_q8.shape
    n_blocks = row_bytes // 34
    y = torch.empty(n, device=x.device, dtype=torch.float32)
    _q8_0_matvec[(triton.cdiv(n, BLOCK_N),)](w_q8, x, y, n, row_bytes, row_bytes // 2, n_blocks,
                                             QK=32, RECORD=34, BLOCK_N=BLOCK_N, BLOCK_B=BLOCK_B,
                                             num_warps=4)
    return y
