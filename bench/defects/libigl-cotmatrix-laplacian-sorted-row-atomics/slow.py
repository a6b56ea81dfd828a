"""Cotangent Laplacian times vertex positions, LV_i = sum_j L_ij (V_j - V_i) (libigl cotmatrix @ V)."""
import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _cot_laplacian_apply(V, rowptr, rows, cols, w, LV, nnz, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    k = pid * BLOCK + tl.arange(0, BLOCK)
    ok = k < nnz
    i = tl.load(rows + k, mask=ok, other=0)
    j = tl.load(cols + k, mask=ok, other=0)
    wk = tl.load(w + k, mask=ok, other=0.0)
    dx = tl.load(V + 3 * j, mask=ok, other=0.0) - tl.load(V + 3 * i, mask=ok, other=0.0)
    dy = tl.load(V + 3 * j + 1, mask=ok, other=0.0) - tl.load(V + 3 * i + 1, mask=ok, other=0.0)
    dz = tl.load(V + 3 * j + 2, mask=ok, other=0.0) - tl.load(V + 3 * i + 2, mask=ok, other=0.0)
    # one sparse entry per lane, scattered into its row of LV
    tl.atomic_add(LV + 3 * i, wk * dx, mask=ok)
    tl.atomic_add(LV + 3 * i + 1, wk * dy, mask=ok)
    tl.atomic_add(LV + 3 * i + 2, wk * dz, mask=ok)


def run(V: torch.Tensor, rowptr: torch.Tensor, rows: torch.Tensor, cols: torch.Tensor,
        w: torch.Tensor) -> torch.Tensor:
    nnz = cols.shape[0]
    LV = torch.zeros_like(V)
    grid = (triton.cdiv(nnz, BLOCK),)
    _cot_laplacian_apply[grid](V, rowptr, rows, cols, w, LV, nnz, BLOCK=BLOCK, num_warps=4)
    return LV
