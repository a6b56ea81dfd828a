# backend: cuda
import torch
import triton
import triton.language as tl


@triton.jit
def ema_channels(a_ptr, x_ptr, h_ptr, L, D, BLOCK_D: tl.constexpr):
    ds = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    base = tl.program_id(0) * L * D + ds
    h = tl.zeros((BLOCK_D,), dtype=tl.float32)
    for t in range(0, L):
        a = tl.load(a_ptr + base + t * D, mask=ds < D, other=0.0)
        h = a * h + tl.load(x_ptr + base + t * D, mask=ds < D, other=0.0)  # expect: common-serial-recurrence
        tl.store(h_ptr + base + t * D, h, mask=ds < D)


@triton.jit
def discounted_returns(r_ptr, g_ptr, T, gamma):
    row = tl.program_id(0)
    ret = 0.0
    for i in range(0, T):
        t = T - 1 - i
        ret *= gamma  # expect: common-serial-recurrence
        ret += tl.load(r_ptr + row * T + t)
        tl.store(g_ptr + row * T + t, ret)


def run(a, x, r):
    B, L, D = a.shape
    h = torch.empty_like(x)
    ema_channels[(B, triton.cdiv(D, 128))](a, x, h, L, D, BLOCK_D=128)
    g = torch.empty_like(r)
    discounted_returns[(r.shape[0],)](r, g, r.shape[1], 0.99)
    return h, g
