# backend: cuda
# absent: common-two-pass-max-sum
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_grad_rows(x_ptr, y_ptr, target_ptr, V, BLOCK: tl.constexpr):
    # the first loop is already online (its sum is rescaled by the running max); the second
    # writes one output per element, which needs the finished log-sum-exp: two passes by need
    base = tl.program_id(0) * V
    offs = tl.arange(0, BLOCK)
    m = -float("inf")
    s = 0.0
    for start in range(0, V, BLOCK):
        x = tl.load(x_ptr + base + start + offs, mask=start + offs < V, other=float("-inf"))
        m_new = tl.maximum(m, tl.max(x, axis=0))
        s = s * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    lse = m + tl.log(s)
    t = tl.load(target_ptr + tl.program_id(0))
    for start in range(0, V, BLOCK):
        cols = start + offs
        x = tl.load(x_ptr + base + cols, mask=cols < V, other=0.0)
        g = tl.exp(x - lse) - tl.where(cols == t, 1.0, 0.0)
        tl.store(y_ptr + base + cols, g, mask=cols < V)


def run(x, target):
    y = torch.empty_like(x)
    softmax_grad_rows[(x.shape[0],)](x, y, target, x.shape[1], BLOCK=4096)
    return y
