"""Flat argmax in two stages: one program per block stores its (max, argmax); one program combines the blocks."""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def argmax_block_kernel(x_ptr, mid_val_ptr, mid_idx_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=-float("inf")).to(tl.float32)
    best = tl.max(x, axis=0)
    idx = tl.argmax(x, axis=0).to(tl.int64) + pid.to(tl.int64) * BLOCK
    tl.store(mid_val_ptr + pid, best)
    tl.store(mid_idx_ptr + pid, idx)


@triton.jit
def argmax_combine_kernel(mid_val_ptr, mid_idx_ptr, out_ptr, n_mid, BLOCK_MID: tl.constexpr):
    offs = tl.arange(0, BLOCK_MID)
    vals = tl.load(mid_val_ptr + offs, mask=offs < n_mid, other=-float("inf"))
    first = tl.argmax(vals, axis=0)
    tl.store(out_ptr, tl.load(mid_idx_ptr + first))


def run(x: torch.Tensor) -> torch.Tensor:
    n = x.numel()
    block = triton.next_power_of_2(math.ceil(n / math.ceil(math.sqrt(n))))
    n_mid = triton.cdiv(n, block)
    mid_val = torch.empty(n_mid, dtype=torch.float32, device=x.device)
    mid_idx = torch.empty(n_mid, dtype=torch.int64, device=x.device)
    out = torch.empty((), dtype=torch.int64, device=x.device)
    argmax_block_kernel[(n_mid,)](x, mid_val, mid_idx, n, BLOCK=block)
    argmax_combine_kernel[(1,)](mid_val, mid_idx, out, n_mid, BLOCK_MID=triton.next_power_of_2(n_mid))
    return out
