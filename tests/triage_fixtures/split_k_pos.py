# backend: cuda
import triton
import triton.language as tl


@triton.jit
def gemm(a_ptr, b_ptr, c_ptr, K, SPLIT: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
         BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k in range(tl.program_id(1) * BK, K, SPLIT * BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * BN + rn[None, :])
        acc = tl.dot(a, b, acc)
    tl.atomic_add(c_ptr + rm[:, None] * BN + rn[None, :], acc)  # expect: cuda-split-k-atomics
