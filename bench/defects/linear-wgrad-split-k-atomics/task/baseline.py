"""Linear weight gradient dW = dY^T @ X (fp32 main_grad): one program per dW tile over all tokens, stored once."""
import torch
import triton
import triton.language as tl


@triton.jit
def wgrad_kernel(dy_ptr, x_ptr, dw_ptr, T, N, K,
                 BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, BLOCK_T: tl.constexpr):
    pid_n = tl.program_id(0)
    pid_k = tl.program_id(1)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_N, BLOCK_K), dtype=tl.float32)
    for t0 in range(0, T, BLOCK_T):
        rt = t0 + tl.arange(0, BLOCK_T)
        t_ok = rt < T
        a = tl.load(dy_ptr + rt[None, :] * N + rn[:, None], mask=t_ok[None, :] & (rn[:, None] < N), other=0.0)
        b = tl.load(x_ptr + rt[:, None] * K + rk[None, :], mask=t_ok[:, None] & (rk[None, :] < K), other=0.0)
        acc = tl.dot(a, b, acc)
    mask = (rn[:, None] < N) & (rk[None, :] < K)
    tl.store(dw_ptr + rn[:, None] * K + rk[None, :], acc, mask=mask)


def run(dy: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    T, N = dy.shape
    K = x.shape[1]
    dw = torch.empty((N, K), dtype=torch.float32, device=dy.device)
    BLOCK_N, BLOCK_K, BLOCK_T = 128, 128, 64
    grid = (triton.cdiv(N, BLOCK_N), triton.cdiv(K, BLOCK_K))
    wgrad_kernel[grid](dy, x, dw, T, N, K,
                       BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, BLOCK_T=BLOCK_T, num_warps=8, num_stages=3)
    return dw
