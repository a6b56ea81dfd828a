# backend: cuda
# absent: common-zeroed-output
import torch
import triton
import triton.language as tl


@triton.jit
def rowsum_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + tl.program_id(0) * n_cols + cols, mask=cols < n_cols, other=0.0)
    # partial sums from several programs meet in one element: the zeros are needed
    tl.atomic_add(out_ptr + tl.program_id(0), tl.sum(x, axis=0))


def run(x):
    rows, cols = x.shape
    out = torch.zeros(rows, device=x.device, dtype=torch.float32)
    rowsum_kernel[(rows, triton.cdiv(cols, 1024))](x, out, cols, BLOCK=1024)
    return out
