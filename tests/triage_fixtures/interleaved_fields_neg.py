# backend: ascend
# absent: ascend-interleaved-fields
import torch
import triton
import triton.language as tl


@triton.jit
def box_area_kernel(box_ptr, out_ptr, n, BLOCK: tl.constexpr):
    for start in range(tl.program_id(0) * BLOCK, n, tl.num_programs(0) * BLOCK):
        i = start + tl.arange(0, BLOCK)
        m = i < n
        b = tl.load(box_ptr + i[:, None] * 4 + tl.arange(0, 4)[None, :], mask=m[:, None], other=0.0)
        w = tl.sum(tl.where(tl.arange(0, 4)[None, :] == 2, b, 0.0), axis=1) - tl.sum(
            tl.where(tl.arange(0, 4)[None, :] == 0, b, 0.0), axis=1)
        tl.store(out_ptr + i, w, mask=m)


@triton.jit
def every_other_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # one stride-2 field only: a strided read, not fields taken apart
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + i, tl.load(x_ptr + 2 * i, mask=i < n, other=0.0), mask=i < n)


def run(boxes):
    out = torch.empty(boxes.shape[0], device=boxes.device)
    box_area_kernel[(40,)](boxes, out, boxes.shape[0], BLOCK=1024)
    every_other_kernel[(40,)](boxes, out, boxes.shape[0], BLOCK=1024)
    return out
