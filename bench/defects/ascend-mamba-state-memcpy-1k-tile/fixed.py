"""batch_memcpy on triton-ascend: one program per copy, 8 KiB per iteration."""
import torch
import triton
import triton.language as tl

BLOCK_SIZE = 8192   # bytes per iteration: fewer, larger MTE transfers, still a small slice of the 192 KB UB


@triton.jit
def batch_memcpy_kernel(pool_ptr, staging_ptr, src_offs_ptr, dst_offs_ptr, sizes_ptr, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    src = pool_ptr + tl.load(src_offs_ptr + pid)
    dst = staging_ptr + tl.load(dst_offs_ptr + pid)
    size = tl.load(sizes_ptr + pid)
    offsets = tl.arange(0, BLOCK_SIZE)
    for i in range(0, size, BLOCK_SIZE):
        mask = (i + offsets) < size
        data = tl.load(src + i + offsets, mask=mask)
        tl.store(dst + i + offsets, data, mask=mask)


def batch_memcpy(pool, src_offs, dst_offs, sizes, total):
    staging = torch.empty(total, dtype=torch.uint8, device=pool.device)
    batch_memcpy_kernel[(sizes.shape[0],)](pool, staging, src_offs, dst_offs, sizes, BLOCK_SIZE=BLOCK_SIZE)
    return staging


def run(pool, src_offs, dst_offs, sizes, total):
    return batch_memcpy(pool, src_offs, dst_offs, sizes, total)
