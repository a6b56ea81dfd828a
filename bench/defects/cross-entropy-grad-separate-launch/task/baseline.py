"""Baseline fused cross-entropy forward and gradient, one program per token."""
import torch
import triton
import triton.language as tl


@triton.jit
def ce_fwd_bwd_kernel(logits_ptr, target_ptr, loss_ptr, grad_ptr, V, stride_row, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = logits_ptr + row * stride_row
    m = tl.full((BLOCK,), -float("inf"), dtype=tl.float32)
    s = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(base + cols, mask=cols < V, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        alpha = tl.where(m_new == -float("inf"), 1.0, tl.exp(m - m_new))
        s = s * alpha + tl.where(x == -float("inf"), 0.0, tl.exp(x - m_new))
        m = m_new
    mx = tl.max(m, axis=0)
    lse = mx + tl.log(tl.sum(s * tl.exp(m - mx), axis=0))
    target = tl.load(target_ptr + row)
    tl.store(loss_ptr + row, lse - tl.load(base + target).to(tl.float32))
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(base + cols, mask=cols < V, other=0.0).to(tl.float32)
        g = tl.exp(x - lse) - tl.where(cols == target, 1.0, 0.0)
        tl.store(grad_ptr + row * stride_row + cols, g.to(grad_ptr.dtype.element_ty), mask=cols < V)


def run(logits: torch.Tensor, target: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    M, V = logits.shape
    loss = torch.empty(M, dtype=torch.float32, device=logits.device)
    grad = torch.empty_like(logits)
    ce_fwd_bwd_kernel[(M,)](logits, target, loss, grad, V, logits.stride(0), BLOCK=4096, num_warps=8)
    return loss, grad
