# backend: cuda
import triton
import triton.language as tl
from triton.language.extra.cuda import libdevice


@triton.jit
def gelu_tanh_mix_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x_ptr + offs, mask=offs < n).to(tl.float32)
    cdf = 0.5 * (1.0 + libdevice.erf(v * 0.7071067811865476))  # expect: cuda-exact-erf-elementwise
    tl.store(out_ptr + offs, (v * cdf).to(tl.float16), mask=offs < n)
