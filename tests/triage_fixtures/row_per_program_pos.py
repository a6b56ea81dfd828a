# backend: cuda
import torch
import triton
import triton.language as tl


@triton.jit
def group_absmax(x_ptr, s_ptr, G: tl.constexpr):
    g = tl.program_id(0)
    offs = tl.arange(0, G)
    x = tl.load(x_ptr + g * G + offs).to(tl.float32)
    tl.store(s_ptr + g, tl.max(tl.abs(x), axis=0) / 127.0)


def run(x):
    s = torch.empty(x.numel() // 64, device=x.device, dtype=torch.float32)
    group_absmax[(x.numel() // 64,)](x, s, G=64)  # expect: common-row-per-program
    return s
