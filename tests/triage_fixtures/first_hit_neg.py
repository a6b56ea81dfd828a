# backend: cuda
# absent: common-retired-lanes-loop
import triton
import triton.language as tl


@triton.jit
def running_best(vals, out, n, width, BLOCK: tl.constexpr):
    r = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    valid = r < n
    best = tl.full([BLOCK], -float("inf"), tl.float32)
    where_best = tl.zeros([BLOCK], dtype=tl.int32)
    for c in range(width):
        v = tl.load(vals + r * width + c, mask=valid, other=-float("inf"))
        where_best = tl.where(v > best, c, where_best)
        best = tl.maximum(best, v)
    tl.store(out + r, where_best, mask=valid)


@triton.jit
def first_over_early_exit(vals, thresholds, out, n, width, BLOCK: tl.constexpr):
    r = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    valid = r < n
    limit = tl.load(thresholds + r, mask=valid, other=0.0)
    at = tl.zeros([BLOCK], dtype=tl.int32) - 1
    pending = tl.sum(valid.to(tl.int32), axis=0)
    c = 0
    while (c < width) & (pending > 0):
        v = tl.load(vals + r * width + c, mask=valid, other=0.0)
        at = tl.where((v > limit) & (at == -1), c, at)
        pending = tl.sum((valid & (at == -1)).to(tl.int32), axis=0)
        c += 1
    tl.store(out + r, at, mask=valid)


def run(vals, thresholds, out, n, width):
    running_best[(triton.cdiv(n, 128),)](vals, out, n, width, BLOCK=128)
    first_over_early_exit[(triton.cdiv(n, 128),)](vals, thresholds, out, n, width, BLOCK=128)
