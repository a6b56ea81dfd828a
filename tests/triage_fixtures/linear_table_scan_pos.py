# backend: cuda
import triton
import triton.language as tl


@triton.jit
def bucket_kernel(x_ptr, cdf_ptr, out_ptr, n, NB, BLOCK: tl.constexpr):
    # sampling from a CDF: each value's bucket is the count of CDF entries below it, one entry per step
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    u = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    idx = tl.zeros((BLOCK,), dtype=tl.int32)
    for i in range(0, NB):
        c = tl.load(cdf_ptr + i)
        idx += (c < u).to(tl.int32)  # expect: common-linear-table-scan
    tl.store(out_ptr + offs, idx, mask=offs < n)


@triton.jit
def bucketize_chunks_kernel(x_ptr, bnd_ptr, out_ptr, n, NB, BLOCK: tl.constexpr, BLOCK_B: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    count = tl.zeros((BLOCK,), dtype=tl.int32)
    for start in range(0, NB, BLOCK_B):
        bs = start + tl.arange(0, BLOCK_B)
        b = tl.load(bnd_ptr + bs, mask=bs < NB, other=float("inf"))
        count += tl.sum(tl.where(x[:, None] >= b[None, :], 1, 0), axis=1)  # expect: common-linear-table-scan
    tl.store(out_ptr + offs, count, mask=offs < n)
