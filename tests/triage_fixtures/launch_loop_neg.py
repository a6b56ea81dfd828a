# backend: cuda
# absent: common-launch-loop
import torch
import triton
import triton.language as tl


@triton.jit
def chunk_kernel(x_ptr, out_ptr, V, BLOCK: tl.constexpr):
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    row = tl.program_id(0)
    x = tl.load(x_ptr + row * V + cols, mask=cols < V)
    tl.store(out_ptr + row * V + cols, x * 2.0, mask=cols < V)


def run(x):
    B, V = x.shape
    out = torch.empty_like(x)
    chunk_kernel[(B, triton.cdiv(V, 4096))](x, out, V, BLOCK=4096)
    return out
