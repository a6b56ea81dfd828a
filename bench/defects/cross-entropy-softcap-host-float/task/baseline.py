"""Softcapped cross-entropy: bf16 logits read once and upcast in registers, online logsumexp per row."""
import torch
import triton
import triton.language as tl


@triton.jit
def softcap_ce_kernel(logits_ptr, labels_ptr, loss_ptr, V, stride_row, cap,
                      BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = logits_ptr + row * stride_row
    cols = tl.arange(0, BLOCK)
    m = tl.full((BLOCK,), -1e30, dtype=tl.float32)
    s = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, V, BLOCK):
        mask = start + cols < V
        x = tl.load(base + start + cols, mask=mask, other=0.0).to(tl.float32)
        z = cap * (2.0 * tl.sigmoid(2.0 * x / cap) - 1.0)
        z = tl.where(mask, z, -float("inf"))
        m_new = tl.maximum(m, z)
        s = s * tl.exp(m - m_new) + tl.exp(z - m_new)
        m = m_new
    m_row = tl.max(m, axis=0)
    lse = m_row + tl.log(tl.sum(s * tl.exp(m - m_row), axis=0))
    label = tl.load(labels_ptr + row)
    x_label = tl.load(base + tl.maximum(label, 0)).to(tl.float32)
    z_label = cap * (2.0 * tl.sigmoid(2.0 * x_label / cap) - 1.0)
    tl.store(loss_ptr + row, tl.where(label == -100, 0.0, lse - z_label))


def run(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    M, V = logits.shape
    loss = torch.empty(M, dtype=torch.float32, device=logits.device)
    softcap_ce_kernel[(M,)](logits, labels, loss, V, logits.stride(0), 30.0, BLOCK=4096)
    return loss
