# backend: cuda
import triton
import triton.language as tl


@triton.jit
def shrink(x_ptr, w_ptr, out_ptr, K, R: tl.constexpr, BK: tl.constexpr):
    row = tl.program_id(0)
    rk = tl.arange(0, BK)
    rr = tl.arange(0, R)
    acc = tl.zeros([R], dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(x_ptr + row * K + k + rk).to(tl.float32)
        w = tl.load(w_ptr + (k + rk)[:, None] * R + rr[None, :])
        acc += tl.sum(x[:, None] * w.to(tl.float32), axis=0)  # expect: cuda-matvec-per-row
    tl.store(out_ptr + row * R + rr, acc)
