"""LoRA expand as a batched matrix-vector product: one program per (token, 1024 columns)."""
import torch
import triton
import triton.language as tl


@triton.jit
def lora_expand_kernel(base_ptr, t_ptr, b_ptr, out_ptr, N, scale,
                       R: tl.constexpr, BLOCK_N: tl.constexpr):
    tok = tl.program_id(0)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rr = tl.arange(0, R)
    t = tl.load(t_ptr + tok * R + rr).to(tl.float32)
    b = tl.load(b_ptr + rr[:, None] * N + rn[None, :], mask=rn[None, :] < N, other=0.0).to(tl.float32)
    delta = tl.sum(t[:, None] * b, axis=0)
    offs = tok.to(tl.int64) * N + rn
    y = tl.load(base_ptr + offs, mask=rn < N, other=0.0).to(tl.float32) + scale * delta
    tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=rn < N)


def run(base: torch.Tensor, t: torch.Tensor, lora_b: torch.Tensor, scale: float) -> torch.Tensor:
    M, N = base.shape
    out = torch.empty_like(base)
    lora_expand_kernel[(M, triton.cdiv(N, 1024))](base, t, lora_b, out, N, scale, R=t.shape[1], BLOCK_N=1024)
    return out
