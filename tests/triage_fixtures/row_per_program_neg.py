# backend: cuda
# absent: common-row-per-program
import torch
import triton
import triton.language as tl


@triton.jit
def group_absmax(x_ptr, s_ptr, n_groups, G: tl.constexpr, ROWS: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    offs = tl.arange(0, G)
    x = tl.load(x_ptr + rows[:, None] * G + offs[None, :], mask=(rows < n_groups)[:, None]).to(tl.float32)
    tl.store(s_ptr + rows, tl.max(tl.abs(x), axis=1) / 127.0, mask=rows < n_groups)


def run(x):
    n = x.numel() // 64
    s = torch.empty(n, device=x.device, dtype=torch.float32)
    group_absmax[(triton.cdiv(n, 32),)](x, s, n, G=64, ROWS=32)
    return s
