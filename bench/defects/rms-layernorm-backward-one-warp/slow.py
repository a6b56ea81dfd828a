"""Unsloth-style fast RMS LayerNorm backward (dX only): one program per row, settings from a helper."""
import torch
import triton
import triton.language as tl


def calculate_settings(n: int) -> tuple:
    BLOCK_SIZE = triton.next_power_of_2(n)
    # a warp per 8192 elements, capped at 32 warps
    num_warps = min(max(BLOCK_SIZE // 8192, 1), 32)
    return BLOCK_SIZE, num_warps


@triton.jit
def _rms_layernorm_backward(dY, X, W, r, dX, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    dY_row = tl.load(dY + row * n_cols + cols, mask=mask, other=0).to(tl.float32)
    X_row = tl.load(X + row * n_cols + cols, mask=mask, other=0).to(tl.float32)
    W_row = tl.load(W + cols, mask=mask, other=0).to(tl.float32)
    inv_var = tl.load(r + row)
    normed = X_row * inv_var
    dY_W = dY_row * W_row
    rowsum_dY_normed = tl.sum(dY_W * normed, axis=0)
    output = inv_var / n_cols * (n_cols * dY_W - normed * rowsum_dY_normed)
    tl.store(dX + row * n_cols + cols, output.to(dX.dtype.element_ty), mask=mask)


def fast_rms_layernorm_backward(dY: torch.Tensor, X: torch.Tensor, W: torch.Tensor, r: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = X.shape
    BLOCK_SIZE, num_warps = calculate_settings(n_cols)
    dX = torch.empty_like(dY)
    _rms_layernorm_backward[(n_rows,)](dY, X, W, r, dX, n_cols, BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)
    return dX


def run(dy: torch.Tensor, x: torch.Tensor, w: torch.Tensor, rstd: torch.Tensor) -> torch.Tensor:
    return fast_rms_layernorm_backward(dy, x, w, rstd)
