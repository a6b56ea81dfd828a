"""ListNet backward: grad = grad_loss[slate] * (softmax(y_pred) - softmax(y_true)) over the valid documents."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _listnet_bwd_kernel(y_pred, y_true, lse_pred, lse_true, grad_loss, grad, numel, L,
                        BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(numel, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        mask = offs < numel
        row = offs // L
        s = tl.load(y_pred + offs, mask=mask, other=0.0)
        y = tl.load(y_true + offs, mask=mask, other=-1.0)
        lp = tl.load(lse_pred + row, mask=mask, other=0.0)
        lt = tl.load(lse_true + row, mask=mask, other=0.0)
        g = tl.load(grad_loss + row, mask=mask, other=0.0)
        d = g * (tl.exp(s - lp) - tl.exp(y - lt))
        tl.store(grad + offs, tl.where(y >= 0.0, d, 0.0), mask=mask)


def run(y_pred: torch.Tensor, y_true: torch.Tensor, lse_pred: torch.Tensor, lse_true: torch.Tensor,
        grad_loss: torch.Tensor) -> torch.Tensor:
    B, L = y_pred.shape
    grad = torch.empty((B, L), device=y_pred.device, dtype=y_pred.dtype)
    numel = B * L
    BLOCK = 4096
    grid = (min(_VECTOR_CORES, triton.cdiv(numel, BLOCK)),)
    _listnet_bwd_kernel[grid](y_pred, y_true, lse_pred, lse_true, grad_loss, grad, numel, L, BLOCK=BLOCK)
    return grad
