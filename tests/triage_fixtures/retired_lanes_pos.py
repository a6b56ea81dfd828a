# backend: cuda
import triton
import triton.language as tl


@triton.jit
def composite(vals, alphas, ids, starts, out, N: tl.constexpr):
    t = tl.program_id(0)
    lanes = tl.arange(0, N)
    trans = tl.full((N,), 1.0, tl.float32)
    acc = tl.zeros((N,), tl.float32)
    live = lanes < N
    for j in range(tl.load(starts + t), tl.load(starts + t + 1)):  # expect: common-retired-lanes-loop
        g = tl.load(ids + j)
        a = tl.load(alphas + g * N + lanes)
        live = live & ~(trans * (1.0 - a) < 1e-4)
        acc += tl.where(live, a * trans * tl.load(vals + g), 0.0)
        trans = tl.where(live, trans * (1.0 - a), trans)
    tl.store(out + t * N + lanes, acc)
