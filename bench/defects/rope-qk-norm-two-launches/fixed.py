"""Per-head query RMSNorm and rotary embedding in one kernel: normalised halves rotate in registers."""
import torch
import triton
import triton.language as tl


@triton.jit
def qk_norm_rope_kernel(q_ptr, w_ptr, cos_ptr, sin_ptr, out_ptr, H, HALF, eps,
                        BLOCK_H: tl.constexpr, BLOCK_D: tl.constexpr):
    tok = tl.program_id(0)
    heads = tl.arange(0, BLOCK_H)
    cols = tl.arange(0, BLOCK_D)
    col_ok = cols < HALF
    mask = (heads[:, None] < H) & col_ok[None, :]
    offs = tok * H * 2 * HALF + heads[:, None] * 2 * HALF + cols[None, :]
    x1 = tl.load(q_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    x2 = tl.load(q_ptr + offs + HALF, mask=mask, other=0.0).to(tl.float32)
    ss = tl.sum(x1 * x1, axis=1) + tl.sum(x2 * x2, axis=1)
    rstd = (1.0 / tl.sqrt(ss / (2 * HALF) + eps))[:, None]
    w1 = tl.load(w_ptr + cols, mask=col_ok, other=0.0).to(tl.float32)[None, :]
    w2 = tl.load(w_ptr + HALF + cols, mask=col_ok, other=0.0).to(tl.float32)[None, :]
    x1 = x1 * rstd * w1
    x2 = x2 * rstd * w2
    c = tl.load(cos_ptr + tok * HALF + cols, mask=col_ok, other=0.0)[None, :]
    s = tl.load(sin_ptr + tok * HALF + cols, mask=col_ok, other=0.0)[None, :]
    tl.store(out_ptr + offs, (x1 * c - x2 * s).to(out_ptr.dtype.element_ty), mask=mask)
    tl.store(out_ptr + offs + HALF, (x2 * c + x1 * s).to(out_ptr.dtype.element_ty), mask=mask)


def run(q: torch.Tensor, w: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    T, H, D = q.shape
    out = torch.empty_like(q)
    qk_norm_rope_kernel[(T,)](q, w, cos, sin, out, H, D // 2, 1e-6,
                              BLOCK_H=triton.next_power_of_2(H),
                              BLOCK_D=triton.next_power_of_2(D // 2))
    return out
