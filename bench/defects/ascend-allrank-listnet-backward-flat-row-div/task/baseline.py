"""ListNet backward: grad = grad_loss[slate] * (softmax(y_pred) - softmax(y_true)) over the valid documents."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _listnet_bwd_kernel(y_pred, y_true, lse_pred, lse_true, grad_loss, grad, B, L,
                        BR: tl.constexpr, BL: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BL)
    cmask = cols < L
    for blk in range(pid, tl.cdiv(B, BR), nprog):
        rows = blk * BR + tl.arange(0, BR)
        rmask = rows < B
        offs = rows[:, None] * L + cols[None, :]
        mask = rmask[:, None] & cmask[None, :]
        s = tl.load(y_pred + offs, mask=mask, other=0.0)
        y = tl.load(y_true + offs, mask=mask, other=-1.0)
        lp = tl.load(lse_pred + rows, mask=rmask, other=0.0)
        lt = tl.load(lse_true + rows, mask=rmask, other=0.0)
        g = tl.load(grad_loss + rows, mask=rmask, other=0.0)
        d = g[:, None] * (tl.exp(s - lp[:, None]) - tl.exp(y - lt[:, None]))
        tl.store(grad + offs, tl.where(y >= 0.0, d, 0.0), mask=mask)


def run(y_pred: torch.Tensor, y_true: torch.Tensor, lse_pred: torch.Tensor, lse_true: torch.Tensor,
        grad_loss: torch.Tensor) -> torch.Tensor:
    B, L = y_pred.shape
    grad = torch.empty((B, L), device=y_pred.device, dtype=y_pred.dtype)
    BL = triton.next_power_of_2(L)
    BR = max(1, 4096 // BL)
    grid = (min(_VECTOR_CORES, triton.cdiv(B, BR)),)
    _listnet_bwd_kernel[grid](y_pred, y_true, lse_pred, lse_true, grad_loss, grad, B, L, BR=BR, BL=BL)
    return grad
