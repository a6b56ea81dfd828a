# backend: cuda
# absent: cuda-whole-row-lse
import torch
import triton
import triton.language as tl


@triton.jit
def row_logsumexp(x_ptr, y_ptr, n, stride, BLOCK: tl.constexpr):
    # already online: one chunk at a time
    m = -float("inf")
    s = 0.0
    for start in range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + tl.program_id(0) * stride + cols, mask=cols < n, other=-float("inf"))
        m_new = tl.maximum(m, tl.max(x, axis=0))
        s = s * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    tl.store(y_ptr + tl.program_id(0), m + tl.log(s))


@triton.jit
def row_cumsoftmax(x_ptr, y_ptr, n, stride, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    mask = cols < n
    x = tl.load(x_ptr + tl.program_id(0) * stride + cols, mask=mask, other=-float("inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    # a scan of the row is not element-wise: no chunk loop can stand in for it here
    tl.store(y_ptr + tl.program_id(0) * stride + cols, tl.cumsum(e, axis=0) / tl.sum(e, axis=0), mask=mask)


def run(x):
    y = torch.empty(x.shape[0], device=x.device, dtype=torch.float32)
    row_logsumexp[(x.shape[0],)](x, y, x.shape[1], x.stride(0), BLOCK=1024)
    z = torch.empty_like(x)
    row_cumsoftmax[(x.shape[0],)](x, z, x.shape[1], x.stride(0), BLOCK=triton.next_power_of_2(x.shape[1]))
    # a whole row of 2048 is small enough to hold
    row_softmax_small[(x.shape[0],)](x, z, x.shape[1], x.stride(0), BLOCK=2048)
    return y, z


@triton.jit
def row_softmax_small(x_ptr, y_ptr, n, stride, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    mask = cols < n
    x = tl.load(x_ptr + tl.program_id(0) * stride + cols, mask=mask, other=-float("inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + tl.program_id(0) * stride + cols, e / tl.sum(e, axis=0), mask=mask)
