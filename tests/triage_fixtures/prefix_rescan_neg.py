# backend: cuda
# absent: common-prefix-rescan
import triton
import triton.language as tl


@triton.jit
def causal_kernel(q_ptr, k_ptr, out_ptr, N, D: tl.constexpr, BLOCK: tl.constexpr):
    # a causal scan reads another tensor (K) up to its own block: inherent, not a re-read
    qb = tl.program_id(0)
    rows = qb * BLOCK + tl.arange(0, BLOCK)
    d = tl.arange(0, D)
    q = tl.load(q_ptr + rows[:, None] * D + d[None, :])
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for s in range(0, (qb + 1) * BLOCK, BLOCK):
        k = tl.load(k_ptr + (s + tl.arange(0, BLOCK))[:, None] * D + d[None, :])
        acc += tl.sum(tl.dot(q, tl.trans(k)), axis=1)
    tl.store(out_ptr + rows, acc)


@triton.jit
def carry_kernel(x_ptr, out_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    total = 0.0
    for s in range(0, N, BLOCK):
        x = tl.load(x_ptr + row * N + s + cols, mask=s + cols < N, other=0.0)
        tl.store(out_ptr + row * N + s + cols, tl.cumsum(x, axis=0) + total, mask=s + cols < N)
        total += tl.sum(x, axis=0)
