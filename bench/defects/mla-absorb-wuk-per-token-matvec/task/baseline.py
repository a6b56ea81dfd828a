"""MLA q absorption: tokens tiled into tl.dot, grid (token block, head, L block), each W_UK tile read once per token block."""
import torch
import triton
import triton.language as tl


@triton.jit
def q_absorb_kernel(q_ptr, w_ptr, out_ptr, T, H, D: tl.constexpr, L: tl.constexpr,
                    BLOCK_T: tl.constexpr, BLOCK_L: tl.constexpr):
    rt = tl.program_id(0) * BLOCK_T + tl.arange(0, BLOCK_T)
    h = tl.program_id(1)
    rl = tl.program_id(2) * BLOCK_L + tl.arange(0, BLOCK_L)
    rd = tl.arange(0, D)
    t_ok = rt[:, None] < T
    q = tl.load(q_ptr + (rt[:, None] * H + h) * D + rd[None, :], mask=t_ok, other=0.0)
    w = tl.load(w_ptr + h * D * L + rd[:, None] * L + rl[None, :])
    acc = tl.dot(q, w)
    tl.store(out_ptr + (rt[:, None] * H + h) * L + rl[None, :], acc.to(out_ptr.dtype.element_ty), mask=t_ok)


def run(q: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    T, H, D = q.shape
    L = w.shape[2]
    out = torch.empty((T, H, L), dtype=q.dtype, device=q.device)
    BLOCK_T, BLOCK_L = 64, 128
    grid = (triton.cdiv(T, BLOCK_T), H, triton.cdiv(L, BLOCK_L))
    q_absorb_kernel[grid](q, w, out, T, H, D=D, L=L, BLOCK_T=BLOCK_T, BLOCK_L=BLOCK_L, num_warps=4)
    return out
