"""Linear weight gradient dW = dY^T @ X (fp32 main_grad): split-K over the token axis, partial tiles added atomically."""
import torch
import triton
import triton.language as tl


@triton.jit
def wgrad_kernel(dy_ptr, x_ptr, dw_ptr, T, N, K, TOKENS_PER_SPLIT,
                 BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, BLOCK_T: tl.constexpr):
    pid_n = tl.program_id(0)
    pid_k = tl.program_id(1)
    split = tl.program_id(2)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_N, BLOCK_K), dtype=tl.float32)
    t_begin = split * TOKENS_PER_SPLIT
    for t0 in range(t_begin, t_begin + TOKENS_PER_SPLIT, BLOCK_T):
        rt = t0 + tl.arange(0, BLOCK_T)
        t_ok = rt < T
        a = tl.load(dy_ptr + rt[None, :] * N + rn[:, None], mask=t_ok[None, :] & (rn[:, None] < N), other=0.0)
        b = tl.load(x_ptr + rt[:, None] * K + rk[None, :], mask=t_ok[:, None] & (rk[None, :] < K), other=0.0)
        acc = tl.dot(a, b, acc)
    mask = (rn[:, None] < N) & (rk[None, :] < K)
    tl.atomic_add(dw_ptr + rn[:, None] * K + rk[None, :], acc, mask=mask)


def run(dy: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    T, N = dy.shape
    K = x.shape[1]
    dw = torch.zeros((N, K), dtype=torch.float32, device=dy.device)
    BLOCK_N, BLOCK_K, BLOCK_T = 128, 128, 64
    # the token axis is long: split it so more programs share the work
    SPLIT_T = 8
    tokens_per_split = triton.cdiv(triton.cdiv(T, SPLIT_T), BLOCK_T) * BLOCK_T
    grid = (triton.cdiv(N, BLOCK_N), triton.cdiv(K, BLOCK_K), SPLIT_T)
    wgrad_kernel[grid](dy, x, dw, T, N, K, tokens_per_split,
                       BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, BLOCK_T=BLOCK_T, num_warps=8, num_stages=3)
    return dw
