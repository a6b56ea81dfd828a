"""Pair-representation LayerNorm over c_z for every token pair (Boltz pairformer)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _pair_layernorm(z, w, b, y, rows, C, stride_row, eps, ROWS: tl.constexpr, BLOCK_C: tl.constexpr):
    r = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK_C)
    col_ok = cols < C
    mask = (r[:, None] < rows) & col_ok[None, :]
    offs = r[:, None] * stride_row + cols[None, :]
    x = tl.load(z + offs, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=1) / C
    diff = tl.where(mask, x - mean[:, None], 0.0)
    var = tl.sum(diff * diff, axis=1) / C
    rstd = 1.0 / tl.sqrt(var + eps)
    gamma = tl.load(w + cols, mask=col_ok, other=0.0)
    beta = tl.load(b + cols, mask=col_ok, other=0.0)
    out = diff * rstd[:, None] * gamma[None, :] + beta[None, :]
    tl.store(y + offs, out.to(y.dtype.element_ty), mask=mask)


def run(z: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    C = z.shape[-1]
    rows = z.numel() // C
    y = torch.empty_like(z)
    BLOCK_C = triton.next_power_of_2(C)
    ROWS = max(1, 4096 // BLOCK_C)
    grid = (triton.cdiv(rows, ROWS),)
    _pair_layernorm[grid](z, w, b, y, rows, C, C, 1e-5, ROWS=ROWS, BLOCK_C=BLOCK_C, num_warps=4)
    return y
