"""Qwen2-VL patch embedding (Conv3d, stride = kernel) as a per-tile dot product over the flattened patch."""
import torch
import triton
import triton.language as tl


@triton.jit
def patch_embed_kernel(x_ptr, w_ptr, y_ptr, P, N, K,
                       BLOCK_P: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_p = tl.program_id(0)
    pid_n = tl.program_id(1)
    rp = pid_p * BLOCK_P + tl.arange(0, BLOCK_P)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_P, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        kk = k0 + rk
        a = tl.load(x_ptr + rp[:, None] * K + kk[None, :], mask=(rp[:, None] < P) & (kk[None, :] < K), other=0.0)
        b = tl.load(w_ptr + rn[None, :] * K + kk[:, None], mask=(rn[None, :] < N) & (kk[:, None] < K), other=0.0)
        # y[p, n] += sum_k x[p, k] * w[n, k] over this slice of the kernel window
        prod = a.to(tl.float32)[:, :, None] * b.to(tl.float32)[None, :, :]
        acc += tl.sum(prod, axis=1)
    tl.store(y_ptr + rp[:, None] * N + rn[None, :], acc.to(y_ptr.dtype.element_ty),
             mask=(rp[:, None] < P) & (rn[None, :] < N))


def run(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    P, K = x.shape
    N = w.shape[0]
    y = torch.empty((P, N), device=x.device, dtype=x.dtype)
    grid = (triton.cdiv(P, 32), triton.cdiv(N, 64))
    patch_embed_kernel[grid](x, w, y, P, N, K, BLOCK_P=32, BLOCK_N=64, BLOCK_K=8, num_warps=4)
    return y
