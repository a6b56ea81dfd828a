# backend: cuda
import torch
import triton
import triton.language as tl


@triton.jit
def chunk_kernel(x_ptr, out_ptr, start, V, BLOCK: tl.constexpr):
    cols = start + tl.arange(0, BLOCK)
    row = tl.program_id(0)
    x = tl.load(x_ptr + row * V + cols, mask=cols < V)
    tl.store(out_ptr + row * V + cols, x * 2.0, mask=cols < V)


def run(x):
    B, V = x.shape
    out = torch.empty_like(x)
    for start in range(0, V, 4096):
        chunk_kernel[(B,)](x, out, start, V, BLOCK=4096)  # expect: common-launch-loop
    return out
