"""LoRA expand over 64x128 output tiles with one tl.dot of the rank-R slices per tile."""
import torch
import triton
import triton.language as tl


@triton.jit
def lora_expand_kernel(base_ptr, t_ptr, b_ptr, out_ptr, M, N, scale,
                       R: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rr = tl.arange(0, R)
    t = tl.load(t_ptr + rm[:, None] * R + rr[None, :], mask=rm[:, None] < M, other=0.0)
    b = tl.load(b_ptr + rr[:, None] * N + rn[None, :], mask=rn[None, :] < N, other=0.0)
    delta = tl.dot(t, b)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    offs = rm[:, None].to(tl.int64) * N + rn[None, :]
    y = tl.load(base_ptr + offs, mask=mask, other=0.0).to(tl.float32) + scale * delta
    tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=mask)


def run(base: torch.Tensor, t: torch.Tensor, lora_b: torch.Tensor, scale: float) -> torch.Tensor:
    M, N = base.shape
    out = torch.empty_like(base)
    grid = (triton.cdiv(M, 64), triton.cdiv(N, 128))
    lora_expand_kernel[grid](base, t, lora_b, out, M, N, scale, R=t.shape[1], BLOCK_M=64, BLOCK_N=128)
    return out
