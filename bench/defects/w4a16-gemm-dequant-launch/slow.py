"""W4A16 linear that first dequantises the whole weight to an fp16 [K, N] buffer, then runs an fp16 GEMM."""
import torch
import triton
import triton.language as tl


@triton.jit
def dequant_kernel(qw_ptr, s_ptr, w_ptr, K, N, GROUP: tl.constexpr, BLOCK_K: tl.constexpr, BLOCK_N: tl.constexpr):
    rk = tl.program_id(0) * BLOCK_K + tl.arange(0, BLOCK_K)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rk[:, None] < K) & (rn[None, :] < N)
    packed = tl.load(qw_ptr + (rk // 8)[:, None] * N + rn[None, :], mask=mask, other=0)
    q = (packed >> ((rk % 8) * 4)[:, None]) & 0xF
    scale = tl.load(s_ptr + (rk // GROUP)[:, None] * N + rn[None, :], mask=mask, other=0.0)
    tl.store(w_ptr + rk[:, None].to(tl.int64) * N + rn[None, :], (q - 8).to(tl.float16) * scale, mask=mask)


@triton.jit
def gemm_kernel(x_ptr, w_ptr, out_ptr, M, N, K,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.arange(0, BLOCK_M)
    rn = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        x = tl.load(x_ptr + rm[:, None] * K + (k + rk)[None, :], mask=rm[:, None] < M, other=0.0)
        w = tl.load(w_ptr + (k + rk)[:, None].to(tl.int64) * N + rn[None, :], mask=rn[None, :] < N, other=0.0)
        acc = tl.dot(x, w, acc)
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def run(x: torch.Tensor, qweight: torch.Tensor, scales: torch.Tensor) -> torch.Tensor:
    M, K = x.shape
    N = qweight.shape[1]
    w = torch.empty((K, N), dtype=torch.float16, device=x.device)  # the dense fp16 weight
    dequant_kernel[(triton.cdiv(K, 64), triton.cdiv(N, 128))](qweight, scales, w, K, N, GROUP=128,
                                                              BLOCK_K=64, BLOCK_N=128)
    out = torch.empty((M, N), dtype=torch.float16, device=x.device)
    gemm_kernel[(triton.cdiv(N, 64),)](x, w, out, M, N, K, BLOCK_M=16, BLOCK_N=64, BLOCK_K=64, num_stages=4)
    return out
