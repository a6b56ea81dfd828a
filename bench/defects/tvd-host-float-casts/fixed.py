"""TVD per row: p and q loaded in their own dtype and upcast in registers."""
import torch
import triton
import triton.language as tl


@triton.jit
def tvd_kernel(p_ptr, q_ptr, loss_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < V
        p = tl.load(p_ptr + row * V + cols, mask=mask, other=0.0).to(tl.float32)
        q = tl.load(q_ptr + row * V + cols, mask=mask, other=0.0).to(tl.float32)
        acc += tl.abs(p - q)
    tl.store(loss_ptr + row, 0.5 * tl.sum(acc))


def run(p: torch.Tensor, q: torch.Tensor) -> torch.Tensor:
    B, V = p.shape
    loss = torch.empty(B, dtype=torch.float32, device=p.device)
    tvd_kernel[(B,)](p, q, loss, V, BLOCK=4096)
    return loss
