# backend: ascend
# absent: common-block-size
import torch
import triton
import triton.language as tl


@triton.jit
def fill_rows(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # a 128-element tile: on a GPU at most one element per thread of four warps; an NPU vector
    # core has no threads to starve, so the tile is not small there
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n + cols, mask=cols < n, other=0.0)
    tl.store(out_ptr + row * n + cols, x * 2.0, mask=cols < n)


def run(x):
    out = torch.empty_like(x)
    fill_rows[(x.shape[0],)](x, out, x.shape[1], BLOCK=128)
    return out
