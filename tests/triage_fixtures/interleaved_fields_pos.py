# backend: ascend
import torch
import triton
import triton.language as tl


@triton.jit
def box_area_kernel(box_ptr, out_ptr, n, BLOCK: tl.constexpr):
    for start in range(tl.program_id(0) * BLOCK, n, tl.num_programs(0) * BLOCK):
        i = start + tl.arange(0, BLOCK)
        m = i < n
        x1 = tl.load(box_ptr + i * 4, mask=m, other=0.0)  # expect: ascend-interleaved-fields
        y1 = tl.load(box_ptr + i * 4 + 1, mask=m, other=0.0)
        x2 = tl.load(box_ptr + i * 4 + 2, mask=m, other=0.0)
        y2 = tl.load(box_ptr + i * 4 + 3, mask=m, other=0.0)
        tl.store(out_ptr + i, (x2 - x1) * (y2 - y1), mask=m)


def run(boxes):
    out = torch.empty(boxes.shape[0], device=boxes.device)
    box_area_kernel[(40,)](boxes, out, boxes.shape[0], BLOCK=1024)
    return out
