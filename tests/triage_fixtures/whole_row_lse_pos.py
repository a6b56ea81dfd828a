# backend: cuda
import torch
import triton
import triton.language as tl


@triton.jit
def row_logsumexp(x_ptr, y_ptr, n, stride, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + tl.program_id(0) * stride + cols, mask=cols < n, other=-float("inf"))
    m = tl.max(x.to(tl.float32), axis=0)  # expect: cuda-whole-row-lse
    s = tl.sum(tl.exp(x.to(tl.float32) - m), axis=0)
    tl.store(y_ptr + tl.program_id(0), m + tl.log(s))


@triton.jit
def row_softmax(x_ptr, y_ptr, n, stride, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    mask = cols < n
    x = tl.load(x_ptr + tl.program_id(0) * stride + cols, mask=mask, other=-float("inf"))
    e = tl.exp2(x - tl.max(x, axis=0))  # expect: cuda-whole-row-lse
    tl.store(y_ptr + tl.program_id(0) * stride + cols, e / tl.sum(e, axis=0), mask=mask)


def run(x):
    y = torch.empty(x.shape[0], device=x.device, dtype=torch.float32)
    row_logsumexp[(x.shape[0],)](x, y, x.shape[1], x.stride(0), BLOCK=triton.next_power_of_2(x.shape[1]))
    z = torch.empty_like(x)
    row_softmax[(x.shape[0],)](x, z, x.shape[1], x.stride(0), BLOCK=16384)
    return y, z
