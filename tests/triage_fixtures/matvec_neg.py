# backend: cuda
# absent: cuda-matvec-per-row
import triton
import triton.language as tl


@triton.jit
def shrink(x_ptr, w_ptr, out_ptr, K, R: tl.constexpr, BM: tl.constexpr, BK: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    rk = tl.arange(0, BK)
    rr = tl.arange(0, R)
    acc = tl.zeros([BM, R], dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(x_ptr + rows[:, None] * K + (k + rk)[None, :])
        w = tl.load(w_ptr + (k + rk)[:, None] * R + rr[None, :])
        acc = tl.dot(x, w, acc)
    tl.store(out_ptr + rows[:, None] * R + rr[None, :], acc)
