"""GroupNorm backward dW/dB: one program per (sample, group), each channel reduced on chip, one atomic add per channel."""
import torch
import triton
import triton.language as tl


@triton.jit
def group_norm_bwd_dwdb_kernel(x_ptr, dy_ptr, mean_ptr, rstd_ptr, dw_ptr, db_ptr,
                               C, HW, G, CH_PER_GROUP, BLOCK: tl.constexpr):
    n = tl.program_id(0)
    g = tl.program_id(1)
    mean = tl.load(mean_ptr + n * G + g)
    rstd = tl.load(rstd_ptr + n * G + g)
    for i in range(0, CH_PER_GROUP):
        c = g * CH_PER_GROUP + i
        base = (n * C + c) * HW
        acc_w = tl.zeros((BLOCK,), dtype=tl.float32)
        acc_b = tl.zeros((BLOCK,), dtype=tl.float32)
        for start in range(0, HW, BLOCK):
            offs = start + tl.arange(0, BLOCK)
            mask = offs < HW
            x = tl.load(x_ptr + base + offs, mask=mask, other=0.0).to(tl.float32)
            dy = tl.load(dy_ptr + base + offs, mask=mask, other=0.0).to(tl.float32)
            acc_w += tl.where(mask, dy * (x - mean) * rstd, 0.0)
            acc_b += dy
        tl.atomic_add(dw_ptr + c, tl.sum(acc_w))
        tl.atomic_add(db_ptr + c, tl.sum(acc_b))


def run(x: torch.Tensor, dy: torch.Tensor, mean: torch.Tensor, rstd: torch.Tensor, groups: int):
    N, C, HW = x.shape
    dw = torch.zeros(C, dtype=torch.float32, device=x.device)
    db = torch.zeros(C, dtype=torch.float32, device=x.device)
    group_norm_bwd_dwdb_kernel[(N, groups)](x, dy, mean, rstd, dw, db, C, HW, groups, C // groups, BLOCK=1024)
    return dw, db
