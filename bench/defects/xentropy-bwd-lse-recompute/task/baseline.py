"""Label-smoothed cross-entropy backward: the forward's log-sum-exp is loaded, so each row is read once."""
import torch
import triton
import triton.language as tl

IGNORE_INDEX = -100


@triton.jit
def _write_grad_row(row_ptr, grad_row_ptr, V, label, lse, scale, smoothing, BLOCK: tl.constexpr):
    for v0 in range(0, V, BLOCK):
        cols = v0 + tl.arange(0, BLOCK)
        x = tl.load(row_ptr + cols, mask=cols < V, other=0.0).to(tl.float32)
        g = tl.exp(x - lse) - smoothing / V - tl.where(cols == label, 1.0 - smoothing, 0.0)
        tl.store(grad_row_ptr + cols, (g * scale).to(grad_row_ptr.dtype.element_ty), mask=cols < V)


@triton.jit
def xentropy_bwd_kernel(logits_ptr, labels_ptr, lse_ptr, grad_loss_ptr, grad_ptr, V, stride_row, smoothing,
                        IGNORE: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    label = tl.load(labels_ptr + row)
    scale = tl.where(label == IGNORE, 0.0, tl.load(grad_loss_ptr + row))
    row_ptr = logits_ptr + row.to(tl.int64) * stride_row
    lse = tl.load(lse_ptr + row)
    _write_grad_row(row_ptr, grad_ptr + row.to(tl.int64) * stride_row, V, label, lse, scale, smoothing, BLOCK)


def run(logits, labels, lse, grad_loss, smoothing) -> torch.Tensor:
    T, V = logits.shape
    grad = torch.empty_like(logits)
    BLOCK = min(4096, triton.next_power_of_2(V))
    xentropy_bwd_kernel[(T,)](logits, labels, lse, grad_loss, grad, V, logits.stride(0), smoothing,
                              IGNORE=IGNORE_INDEX, BLOCK=BLOCK, num_warps=8)
    return grad
