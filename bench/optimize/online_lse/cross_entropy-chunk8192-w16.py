"""Baseline Triton cross-entropy: one program per token, whole logit row in one block."""
import torch
import triton
import triton.language as tl


@triton.jit
def cross_entropy_kernel(logits_ptr, target_ptr, loss_ptr, V, stride_row, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    m = -float("inf")  # running max of the row
    row_sum = 0.0  # running sum of exp(x - m)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(logits_ptr + row * stride_row + cols, mask=cols < V, other=-float("inf"))
        x = x.to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0).to(tl.float32))
        m_ref = tl.where(m_new == -float("inf"), 0.0, m_new)
        row_sum = row_sum * tl.exp(m - m_ref) + tl.sum(tl.exp(x - m_ref), axis=0)
        m = m_new
    lse = m + tl.log(row_sum)
    target = tl.load(target_ptr + row)
    picked = tl.load(logits_ptr + row * stride_row + target).to(tl.float32)
    tl.store(loss_ptr + row, lse - picked)


def run(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    M, V = logits.shape
    loss = torch.empty(M, dtype=torch.float32, device=logits.device)
    cross_entropy_kernel[(M,)](logits, target, loss, V, logits.stride(0),
                               BLOCK=min(8192, triton.next_power_of_2(V)), num_warps=16)
    return loss
