# backend: cuda
import triton
import triton.language as tl


@triton.jit
def scaled_mm_kernel(a_ptr, b_ptr, s_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                     BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        s = tl.load(s_ptr + rm)
        acc += tl.dot(a, b) * s[:, None]  # expect: common-loop-invariant-work
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)
