# backend: ascend
# absent: ascend-grid-exceeds-cores
import torch
import triton
import triton.language as tl


@triton.jit
def add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    for block in range(tl.program_id(0), tl.cdiv(n, BLOCK), tl.num_programs(0)):
        offs = block * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n)
        tl.store(out_ptr + offs, x + tl.load(y_ptr + offs, mask=offs < n), mask=offs < n)


def run(x, y, device):
    out = torch.empty_like(x)
    n = x.numel()
    cores = triton.runtime.driver.active.utils.get_device_properties(device)["num_vectorcore"]
    add[(cores,)](x, y, out, n, BLOCK=1024)
    add[(triton.cdiv(n, 1 << 20),)](x, y, out, n, BLOCK=1024)
    add[(40,)](x, y, out, n, BLOCK=1024)
    return out
