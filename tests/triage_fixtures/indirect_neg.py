# backend: ascend
# absent: ascend-discrete-gather
import triton
import triton.language as tl


@triton.jit
def embed(table_ptr, ids_ptr, out_ptr, dim, BLOCK: tl.constexpr):
    row = tl.load(ids_ptr + tl.program_id(0))
    cols = tl.arange(0, BLOCK)
    vals = tl.load(table_ptr + row * dim + cols, mask=cols < dim)
    tl.store(out_ptr + tl.program_id(0) * dim + cols, vals, mask=cols < dim)
