"""LoRA shrink as a batched matrix-vector product: one program per token reduces x_row * A over K."""
import torch
import triton
import triton.language as tl


@triton.jit
def lora_shrink_kernel(x_ptr, a_ptr, t_ptr, K, scale, R: tl.constexpr, BLOCK_K: tl.constexpr):
    tok = tl.program_id(0).to(tl.int64)
    rk = tl.arange(0, BLOCK_K)
    rr = tl.arange(0, R)
    acc = tl.zeros((R,), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        x = tl.load(x_ptr + tok * K + k + rk, mask=k + rk < K, other=0.0).to(tl.float32)
        a = tl.load(a_ptr + (k + rk)[:, None] * R + rr[None, :], mask=(k + rk)[:, None] < K, other=0.0)
        acc += tl.sum(x[:, None] * a.to(tl.float32), axis=0)
    tl.store(t_ptr + tok * R + rr, (acc * scale).to(t_ptr.dtype.element_ty))


def run(x: torch.Tensor, lora_a: torch.Tensor, scale: float) -> torch.Tensor:
    M, K = x.shape
    R = lora_a.shape[1]
    t = torch.empty((M, R), dtype=x.dtype, device=x.device)
    lora_shrink_kernel[(M,)](x, lora_a, t, K, scale, R=R, BLOCK_K=512)
    return t
