# backend: cuda
# absent: common-prefix-rescan
import torch
import triton
import triton.language as tl


@triton.jit
def causal_attention_kernel(q_ptr, k_ptr, v_ptr, o_ptr, D: tl.constexpr, BLOCK: tl.constexpr):
    start_m = tl.program_id(0)
    rows = start_m * BLOCK + tl.arange(0, BLOCK)
    d = tl.arange(0, D)
    q = tl.load(q_ptr + rows[:, None] * D + d[None, :])
    acc = tl.zeros([BLOCK, D], dtype=tl.float32)
    for start_n in range(0, (start_m + 1) * BLOCK, BLOCK):
        cols = start_n + tl.arange(0, BLOCK)
        k = tl.load(k_ptr + cols[:, None] * D + d[None, :])
        v = tl.load(v_ptr + cols[:, None] * D + d[None, :])
        p = tl.where(cols[None, :] <= rows[:, None], tl.dot(q, tl.trans(k)), 0.0)
        acc += tl.dot(p.to(tl.float16), v)
    tl.store(o_ptr + rows[:, None] * D + d[None, :], acc.to(tl.float16))


def run(q, k, v):
    o = torch.empty_like(q)
    causal_attention_kernel[(q.shape[0] // 64,)](q, k, v, o, D=64, BLOCK=64)
    return o
