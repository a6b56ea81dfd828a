# backend: cuda
# absent: cuda-exact-erf-elementwise
import triton
import triton.language as tl


@triton.jit
def matmul_gelu_kernel(a_ptr, b_ptr, c_ptr, K, BLOCK: tl.constexpr):
    # erf in a GEMM's epilogue is hidden under the MMA: not the cost
    r = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    for k in range(0, K, BLOCK):
        a = tl.load(a_ptr + r[:, None] * K + (k + r)[None, :])
        b = tl.load(b_ptr + (k + r)[:, None] * BLOCK + r[None, :])
        acc += tl.dot(a, b)
    acc = 0.5 * acc * (1.0 + tl.erf(acc * 0.7071067811865476))
    tl.store(c_ptr + r[:, None] * BLOCK + r[None, :], acc.to(tl.float16))


@triton.jit
def gelu_tanh_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n).to(tl.float32)
    u = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    tl.store(out_ptr + offs, (x * tl.sigmoid(2.0 * u)).to(tl.float16), mask=offs < n)
