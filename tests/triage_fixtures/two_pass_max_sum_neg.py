# backend: cuda
# absent: common-two-pass-max-sum
import torch
import triton
import triton.language as tl


@triton.jit
def row_lse(x_ptr, out_ptr, V, BLOCK: tl.constexpr):
    # one pass: the running max and the rescaled sum travel together
    row = x_ptr + tl.program_id(0) * V
    offs = tl.arange(0, BLOCK)
    m = -float("inf")
    s = 0.0
    for start in range(0, V, BLOCK):
        x = tl.load(row + start + offs, mask=start + offs < V, other=float("-inf"))
        m_new = tl.maximum(m, tl.max(x, axis=0))
        s = s * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    tl.store(out_ptr + tl.program_id(0), m + tl.log(s))


def run(x):
    out = torch.empty(x.shape[0], device=x.device)
    row_lse[(x.shape[0],)](x, out, x.shape[1], BLOCK=4096)
    return out
