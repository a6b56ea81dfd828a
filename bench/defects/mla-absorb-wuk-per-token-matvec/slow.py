"""MLA q absorption: the decode kernel, one program per (token, head) multiplying its q vector into W_UK[h]."""
import torch
import triton
import triton.language as tl


@triton.jit
def q_absorb_kernel(q_ptr, w_ptr, out_ptr, H, D: tl.constexpr, L: tl.constexpr, BLOCK_L: tl.constexpr):
    t = tl.program_id(0)
    h = tl.program_id(1)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + (t * H + h) * D + rd).to(tl.float32)
    for l0 in range(0, L, BLOCK_L):
        rl = l0 + tl.arange(0, BLOCK_L)
        w = tl.load(w_ptr + h * D * L + rd[:, None] * L + rl[None, :]).to(tl.float32)
        acc = tl.sum(q[:, None] * w, axis=0)
        tl.store(out_ptr + (t * H + h) * L + rl, acc.to(out_ptr.dtype.element_ty))


def run(q: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    T, H, D = q.shape
    L = w.shape[2]
    out = torch.empty((T, H, L), dtype=q.dtype, device=q.device)
    q_absorb_kernel[(T, H)](q, w, out, H, D=D, L=L, BLOCK_L=128, num_warps=8)
    return out
