# backend: cuda
import triton
import triton.language as tl


@triton.jit
def dot_rows(x_ptr, w_ptr, out_ptr, BLOCK: tl.constexpr):
    base = tl.program_id(0) * BLOCK
    acc = 0.0
    for i in range(BLOCK):  # expect: cuda-scalar-element-loop
        acc += tl.load(x_ptr + base + i) * tl.load(w_ptr + i)
    tl.store(out_ptr + tl.program_id(0), acc)
