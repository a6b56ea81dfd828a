"""LoRA shrink over 64-token tiles: tl.dot of x slices with A slices along K (sgmv style)."""
import torch
import triton
import triton.language as tl


@triton.jit
def lora_shrink_kernel(x_ptr, a_ptr, t_ptr, M, K, scale, R: tl.constexpr,
                       BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rk = tl.arange(0, BLOCK_K)
    rr = tl.arange(0, R)
    acc = tl.zeros((BLOCK_M, R), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        x = tl.load(x_ptr + rm[:, None].to(tl.int64) * K + (k + rk)[None, :],
                    mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        a = tl.load(a_ptr + (k + rk)[:, None] * R + rr[None, :], mask=(k + rk)[:, None] < K, other=0.0)
        acc = tl.dot(x, a, acc)
    tl.store(t_ptr + rm[:, None] * R + rr[None, :], (acc * scale).to(t_ptr.dtype.element_ty),
             mask=rm[:, None] < M)


def run(x: torch.Tensor, lora_a: torch.Tensor, scale: float) -> torch.Tensor:
    M, K = x.shape
    R = lora_a.shape[1]
    t = torch.empty((M, R), dtype=x.dtype, device=x.device)
    lora_shrink_kernel[(triton.cdiv(M, 64),)](x, lora_a, t, M, K, scale, R=R, BLOCK_M=64, BLOCK_K=128,
                                              num_stages=3)
    return t
