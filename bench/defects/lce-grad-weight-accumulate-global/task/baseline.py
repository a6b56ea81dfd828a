"""Baseline LM-head grad_W accumulation: 128 x 128 fp32 accumulator in registers seeded from grad_W, bf16 tl.dot token loop."""
import torch
import triton
import triton.language as tl


@triton.jit
def wgrad_accumulate_kernel(gl_ptr, x_ptr, gw_ptr, out_ptr, T, V, H,
                            BLOCK_V: tl.constexpr, BLOCK_H: tl.constexpr, BLOCK_T: tl.constexpr):
    rv = tl.program_id(0) * BLOCK_V + tl.arange(0, BLOCK_V)
    rh = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)
    rt = tl.arange(0, BLOCK_T)
    cmask = (rv[:, None] < V) & (rh[None, :] < H)
    acc = tl.load(gw_ptr + rv[:, None] * H + rh[None, :], mask=cmask, other=0.0)
    for t in tl.range(0, T, BLOCK_T):
        a = tl.load(gl_ptr + (t + rt)[None, :] * V + rv[:, None],
                    mask=(rv[:, None] < V) & ((t + rt)[None, :] < T), other=0.0)
        b = tl.load(x_ptr + (t + rt)[:, None] * H + rh[None, :],
                    mask=((t + rt)[:, None] < T) & (rh[None, :] < H), other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(out_ptr + rv[:, None] * H + rh[None, :], acc, mask=cmask)


def run(grad_logits: torch.Tensor, x: torch.Tensor, grad_w: torch.Tensor) -> torch.Tensor:
    T, V = grad_logits.shape
    H = x.shape[1]
    out = torch.empty_like(grad_w)
    grid = (triton.cdiv(V, 128), triton.cdiv(H, 128))
    wgrad_accumulate_kernel[grid](grad_logits, x, grad_w, out, T, V, H, BLOCK_V=128, BLOCK_H=128, BLOCK_T=64,
                                  num_warps=4, num_stages=3)
    return out
