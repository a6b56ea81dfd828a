# backend: cuda
import triton
import triton.language as tl


@triton.jit
def mm_kernel(a_ptr, b_ptr, c_ptr, K, N, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :]).to(tl.float32)
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :]).to(tl.float32)
        acc += tl.sum(a[:, :, None] * b[None, :, :], axis=1)  # expect: cuda-broadcast-matmul
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)
