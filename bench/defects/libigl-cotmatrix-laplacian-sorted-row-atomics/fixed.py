"""Cotangent Laplacian times vertex positions, LV_i = sum_j L_ij (V_j - V_i) (libigl cotmatrix @ V)."""
import torch
import triton
import triton.language as tl

BLOCK_ROWS = 128
BLOCK_NZ = 8


@triton.jit
def _cot_laplacian_apply(V, rowptr, rows, cols, w, LV, n_rows,
                         BLOCK_ROWS: tl.constexpr, BLOCK_NZ: tl.constexpr):
    pid = tl.program_id(0)
    i = pid * BLOCK_ROWS + tl.arange(0, BLOCK_ROWS)
    row_ok = i < n_rows
    start = tl.load(rowptr + i, mask=row_ok, other=0)
    count = tl.load(rowptr + i + 1, mask=row_ok, other=0) - start
    xi = tl.load(V + 3 * i, mask=row_ok, other=0.0)
    yi = tl.load(V + 3 * i + 1, mask=row_ok, other=0.0)
    zi = tl.load(V + 3 * i + 2, mask=row_ok, other=0.0)
    acc_x = tl.zeros([BLOCK_ROWS], dtype=tl.float32)
    acc_y = tl.zeros([BLOCK_ROWS], dtype=tl.float32)
    acc_z = tl.zeros([BLOCK_ROWS], dtype=tl.float32)
    nz = tl.arange(0, BLOCK_NZ)
    # each row's entries are contiguous (CSR): sum them in registers, up to the longest row here
    for n0 in range(0, tl.max(count, axis=0), BLOCK_NZ):
        ok = (n0 + nz)[None, :] < count[:, None]
        k = start[:, None] + n0 + nz[None, :]
        j = tl.load(cols + k, mask=ok, other=0)
        wk = tl.load(w + k, mask=ok, other=0.0)
        acc_x += tl.sum(wk * (tl.load(V + 3 * j, mask=ok, other=0.0) - xi[:, None]), axis=1)
        acc_y += tl.sum(wk * (tl.load(V + 3 * j + 1, mask=ok, other=0.0) - yi[:, None]), axis=1)
        acc_z += tl.sum(wk * (tl.load(V + 3 * j + 2, mask=ok, other=0.0) - zi[:, None]), axis=1)
    tl.store(LV + 3 * i, acc_x, mask=row_ok)
    tl.store(LV + 3 * i + 1, acc_y, mask=row_ok)
    tl.store(LV + 3 * i + 2, acc_z, mask=row_ok)


def run(V: torch.Tensor, rowptr: torch.Tensor, rows: torch.Tensor, cols: torch.Tensor,
        w: torch.Tensor) -> torch.Tensor:
    n_rows = V.shape[0]
    LV = torch.empty_like(V)
    grid = (triton.cdiv(n_rows, BLOCK_ROWS),)
    _cot_laplacian_apply[grid](V, rowptr, rows, cols, w, LV, n_rows,
                               BLOCK_ROWS=BLOCK_ROWS, BLOCK_NZ=BLOCK_NZ, num_warps=4)
    return LV
