"""GroupNorm backward dW/dB: one program per (sample, group) streaming the group's elements, atomically adding each element's contribution to its channel."""
import torch
import triton
import triton.language as tl


@triton.jit
def group_norm_bwd_dwdb_kernel(x_ptr, dy_ptr, mean_ptr, rstd_ptr, dw_ptr, db_ptr,
                               C, HW, G, GROUP_SIZE, BLOCK: tl.constexpr):
    n = tl.program_id(0)
    g = tl.program_id(1)
    mean = tl.load(mean_ptr + n * G + g)
    rstd = tl.load(rstd_ptr + n * G + g)
    base = n * C * HW + g * GROUP_SIZE
    c0 = g * (GROUP_SIZE // HW)
    for start in range(0, GROUP_SIZE, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < GROUP_SIZE
        x = tl.load(x_ptr + base + offs, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(dy_ptr + base + offs, mask=mask, other=0.0).to(tl.float32)
        channel = c0 + offs // HW
        tl.atomic_add(dw_ptr + channel, dy * (x - mean) * rstd, mask=mask)
        tl.atomic_add(db_ptr + channel, dy, mask=mask)


def run(x: torch.Tensor, dy: torch.Tensor, mean: torch.Tensor, rstd: torch.Tensor, groups: int):
    N, C, HW = x.shape
    dw = torch.zeros(C, dtype=torch.float32, device=x.device)
    db = torch.zeros(C, dtype=torch.float32, device=x.device)
    group_size = (C // groups) * HW
    group_norm_bwd_dwdb_kernel[(N, groups)](x, dy, mean, rstd, dw, db, C, HW, groups, group_size, BLOCK=1024)
    return dw, db
