# backend: cuda
import triton
import triton.language as tl


@triton.jit
def attn(q_ptr, k_ptr, o_ptr, S, D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    dims = tl.arange(0, D)
    q = tl.load(q_ptr + rows[:, None] * D + dims[None, :])
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for start in range(0, S, BN):  # expect: common-causal-full-scan
        cols = start + tl.arange(0, BN)
        k = tl.load(k_ptr + cols[:, None] * D + dims[None, :])
        qk = tl.dot(q, tl.trans(k))
        acc += tl.where(cols[None, :] <= rows[:, None], qk, -float("inf"))
    tl.store(o_ptr + rows[:, None] * BN + tl.arange(0, BN)[None, :], acc)
