"""Baseline W4A16 linear: dequantisation fused into the K loop."""
import torch
import triton
import triton.language as tl


@triton.jit
def w4a16_kernel(x_ptr, qw_ptr, s_ptr, out_ptr, M, N, K,
                 GROUP: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.arange(0, BLOCK_M)
    rn = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        x = tl.load(x_ptr + rm[:, None] * K + (k + rk)[None, :], mask=rm[:, None] < M, other=0.0)
        packed = tl.load(qw_ptr + ((k + rk) // 8)[:, None] * N + rn[None, :], mask=rn[None, :] < N, other=0)
        q = (packed >> (((k + rk) % 8) * 4)[:, None]) & 0xF
        scale = tl.load(s_ptr + (k // GROUP) * N + rn, mask=rn < N, other=0.0)
        w = ((q - 8).to(tl.float16) * scale[None, :]).to(tl.float16)
        acc = tl.dot(x, w, acc)
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def run(x: torch.Tensor, qweight: torch.Tensor, scales: torch.Tensor) -> torch.Tensor:
    M, K = x.shape
    N = qweight.shape[1]
    out = torch.empty((M, N), dtype=torch.float16, device=x.device)
    w4a16_kernel[(triton.cdiv(N, 64),)](x, qweight, scales, out, M, N, K, GROUP=128,
                                        BLOCK_M=16, BLOCK_N=64, BLOCK_K=64, num_stages=4)
    return out
