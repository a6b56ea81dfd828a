"""Per-token cross-entropy (ignore_index=-100): one program per token, online log-sum-exp over the vocab."""
import torch
import triton
import triton.language as tl


@triton.jit
def ce_loss_kernel(logits_ptr, labels_ptr, loss_ptr, V, IGNORE_INDEX: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    label = tl.load(labels_ptr + row)
    valid = label != IGNORE_INDEX
    row_ptr = logits_ptr + row * V
    m = -float("inf")
    s = 0.0
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(row_ptr + cols, mask=cols < V, other=-float("inf")).to(tl.float32)
        new_m = tl.maximum(m, tl.max(x, axis=0))
        s = s * tl.exp(m - new_m) + tl.sum(tl.exp(x - new_m), axis=0)
        m = new_m
    target = tl.load(row_ptr + label, mask=valid, other=0.0).to(tl.float32)
    loss = m + tl.log(s) - target
    tl.store(loss_ptr + row, tl.where(valid, loss, 0.0))


def run(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    T, V = logits.shape
    loss = torch.empty(T, dtype=torch.float32, device=logits.device)
    ce_loss_kernel[(T,)](logits, labels, loss, V, IGNORE_INDEX=-100, BLOCK=4096, num_warps=8)
    return loss
