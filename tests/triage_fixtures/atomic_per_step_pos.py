# backend: ascend
import triton
import triton.language as tl


@triton.jit
def absmax_scale_kernel(x_ptr, scale_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    for start in range(pid * BLOCK, n, tl.num_programs(0) * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
        tl.atomic_max(scale_ptr, tl.max(tl.abs(x), axis=0))  # expect: common-atomic-per-step
