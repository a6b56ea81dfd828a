# backend: cuda
# absent: common-retired-lanes-loop
import triton
import triton.language as tl


@triton.jit
def composite(vals, alphas, ids, starts, out, N: tl.constexpr):
    t = tl.program_id(0)
    lanes = tl.arange(0, N)
    trans = tl.full((N,), 1.0, tl.float32)
    acc = tl.zeros((N,), tl.float32)
    live = lanes < N
    j = tl.load(starts + t)
    end = tl.load(starts + t + 1)
    n_live = tl.sum(live.to(tl.int32), axis=0)
    while (j < end) & (n_live > 0):
        g = tl.load(ids + j)
        a = tl.load(alphas + g * N + lanes)
        live = live & ~(trans * (1.0 - a) < 1e-4)
        acc += tl.where(live, a * trans * tl.load(vals + g), 0.0)
        trans = tl.where(live, trans * (1.0 - a), trans)
        n_live = tl.sum(live.to(tl.int32), axis=0)
        j += 1
    tl.store(out + t * N + lanes, acc)
