"""Cross-entropy streaming the logit row through 4096-column sub-tiles with an online max and sum."""
import torch
import triton
import triton.language as tl


@triton.jit
def cross_entropy_kernel(logits_ptr, target_ptr, loss_ptr, V, stride_row, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = logits_ptr + row * stride_row
    m = tl.full((BLOCK,), -float("inf"), tl.float32)
    s = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, V, BLOCK):  # each sub-tile fits the UB with room for double buffering
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(base + cols, mask=cols < V, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        s = s * tl.exp(m - m_new) + tl.exp(x - m_new)
        m = tl.where(m_new == -float("inf"), m, m_new)
        s = tl.where(m_new == -float("inf"), 0.0, s)
    row_max = tl.max(m, axis=0)
    lse = row_max + tl.log(tl.sum(s * tl.exp(m - row_max), axis=0))
    target = tl.load(target_ptr + row)
    picked = tl.load(base + target).to(tl.float32)
    tl.store(loss_ptr + row, lse - picked)


def run(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    M, V = logits.shape
    loss = torch.empty(M, dtype=torch.float32, device=logits.device)
    cross_entropy_kernel[(M,)](logits, target, loss, V, logits.stride(0),
                               BLOCK=min(4096, triton.next_power_of_2(V)))
    return loss
