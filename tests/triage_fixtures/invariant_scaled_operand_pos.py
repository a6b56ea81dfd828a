# backend: cuda
import torch
import triton
import triton.language as tl


@triton.jit
def w8_linear_kernel(a_ptr, w_ptr, scale_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        w = tl.load(w_ptr + (k + rk)[:, None] * N + rn[None, :])
        s = tl.load(scale_ptr + rn)  # expect: common-loop-invariant-work
        w = (w.to(tl.float32) * s[None, :]).to(tl.float16)
        acc += tl.dot(a, w)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


def run(a, w, scale):
    M, K = a.shape
    N = w.shape[1]
    c = torch.empty((M, N), device=a.device, dtype=torch.float16)
    w8_linear_kernel[(M // 64, N // 64)](a, w, scale, c, M, N, K, BM=64, BN=64, BK=64)
    return c
