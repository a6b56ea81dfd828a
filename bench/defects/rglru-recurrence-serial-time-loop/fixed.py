"""RG-LRU recurrence: per channel block, 64-step chunks scanned with tl.associative_scan, the state carried across chunks."""
import torch
import triton
import triton.language as tl


@triton.jit
def _affine_combine(a1, b1, a2, b2):
    return a1 * a2, a2 * b1 + b2


@triton.jit
def linear_recurrence_kernel(a_ptr, x_ptr, h_ptr, L, D, BLOCK_T: tl.constexpr, BLOCK_D: tl.constexpr):
    b = tl.program_id(0)
    ds = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    ts = tl.arange(0, BLOCK_T)
    base = b.to(tl.int64) * L * D
    h_prev = tl.zeros((BLOCK_D,), dtype=tl.float32)
    for start in range(0, L, BLOCK_T):
        t = start + ts
        m = (t[:, None] < L) & (ds[None, :] < D)
        offs = base + t[:, None] * D + ds[None, :]
        a = tl.load(a_ptr + offs, mask=m, other=1.0).to(tl.float32)
        x = tl.load(x_ptr + offs, mask=m, other=0.0).to(tl.float32)
        x = tl.where(ts[:, None] == 0, a * h_prev[None, :] + x, x)
        _, h = tl.associative_scan((a, x), 0, _affine_combine)
        tl.store(h_ptr + offs, h.to(h_ptr.dtype.element_ty), mask=m)
        h_prev = tl.sum(tl.where(ts[:, None] == BLOCK_T - 1, h, 0.0), axis=0)


def run(a: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    B, L, D = a.shape
    h = torch.empty_like(x)
    linear_recurrence_kernel[(B, triton.cdiv(D, 64))](a, x, h, L, D, BLOCK_T=64, BLOCK_D=64)
    return h
