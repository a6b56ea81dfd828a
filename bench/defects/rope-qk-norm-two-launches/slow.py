"""Per-head query RMSNorm, then rotary embedding, as two kernels through an intermediate buffer."""
import torch
import triton
import triton.language as tl


@triton.jit
def head_rmsnorm_kernel(q_ptr, w_ptr, out_ptr, H, D, eps, BLOCK_H: tl.constexpr, BLOCK_D: tl.constexpr):
    tok = tl.program_id(0)
    heads = tl.arange(0, BLOCK_H)
    cols = tl.arange(0, BLOCK_D)
    mask = (heads[:, None] < H) & (cols[None, :] < D)
    offs = tok * H * D + heads[:, None] * D + cols[None, :]
    x = tl.load(q_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    rstd = 1.0 / tl.sqrt(tl.sum(x * x, axis=1) / D + eps)
    w = tl.load(w_ptr + cols, mask=cols < D, other=0.0).to(tl.float32)
    tl.store(out_ptr + offs, (x * rstd[:, None] * w[None, :]).to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def rope_kernel(x_ptr, cos_ptr, sin_ptr, out_ptr, H, HALF, BLOCK_H: tl.constexpr, BLOCK_D: tl.constexpr):
    tok = tl.program_id(0)
    heads = tl.arange(0, BLOCK_H)
    cols = tl.arange(0, BLOCK_D)
    col_ok = cols < HALF
    mask = (heads[:, None] < H) & col_ok[None, :]
    offs = tok * H * 2 * HALF + heads[:, None] * 2 * HALF + cols[None, :]
    x1 = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    x2 = tl.load(x_ptr + offs + HALF, mask=mask, other=0.0).to(tl.float32)
    c = tl.load(cos_ptr + tok * HALF + cols, mask=col_ok, other=0.0)[None, :]
    s = tl.load(sin_ptr + tok * HALF + cols, mask=col_ok, other=0.0)[None, :]
    tl.store(out_ptr + offs, (x1 * c - x2 * s).to(out_ptr.dtype.element_ty), mask=mask)
    tl.store(out_ptr + offs + HALF, (x2 * c + x1 * s).to(out_ptr.dtype.element_ty), mask=mask)


def run(q: torch.Tensor, w: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    T, H, D = q.shape
    normed = torch.empty_like(q)
    out = torch.empty_like(q)
    bh = triton.next_power_of_2(H)
    head_rmsnorm_kernel[(T,)](q, w, normed, H, D, 1e-6, BLOCK_H=bh, BLOCK_D=triton.next_power_of_2(D))
    rope_kernel[(T,)](normed, cos, sin, out, H, D // 2, BLOCK_H=bh, BLOCK_D=triton.next_power_of_2(D // 2))
    return out
