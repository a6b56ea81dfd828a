"""TVD per row: both distributions are cast to fp32 first (as p.float(), q.float()), then reduced."""
import torch
import triton
import triton.language as tl


@triton.jit
def to_fp32_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask).to(tl.float32), mask=mask)


@triton.jit
def tvd_kernel(p_ptr, q_ptr, loss_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < V
        p = tl.load(p_ptr + row * V + cols, mask=mask, other=0.0)
        q = tl.load(q_ptr + row * V + cols, mask=mask, other=0.0)
        acc += tl.abs(p - q)
    tl.store(loss_ptr + row, 0.5 * tl.sum(acc))


def to_fp32(x: torch.Tensor) -> torch.Tensor:
    y = torch.empty(x.shape, dtype=torch.float32, device=x.device)
    to_fp32_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
    return y


def run(p: torch.Tensor, q: torch.Tensor) -> torch.Tensor:
    p, q = to_fp32(p), to_fp32(q)
    B, V = p.shape
    loss = torch.empty(B, dtype=torch.float32, device=p.device)
    tvd_kernel[(B,)](p, q, loss, V, BLOCK=4096)
    return loss
