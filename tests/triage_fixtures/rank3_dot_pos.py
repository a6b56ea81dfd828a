# backend: cuda
import triton
import triton.language as tl


@triton.jit
def bmm_kernel(a_ptr, b_ptr, c_ptr, K, BB: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rb = tl.arange(0, BB)
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BB, BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rb[:, None, None] * BM * K + rm[None, :, None] * K + (k + rk)[None, None, :])
        b = tl.load(b_ptr + rb[:, None, None] * K * BN + (k + rk)[None, :, None] * BN + rn[None, None, :])
        acc = tl.dot(a, b, acc)  # expect: cuda-rank3-dot
    tl.store(c_ptr + rb[:, None, None] * BM * BN + rm[None, :, None] * BN + rn[None, None, :], acc)
