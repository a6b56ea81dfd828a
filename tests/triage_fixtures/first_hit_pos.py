# backend: cuda
import triton
import triton.language as tl


@triton.jit
def sign_change(coef, xs, out, n, n_grid, h, BLOCK: tl.constexpr):
    lane = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = lane < n
    x0 = tl.load(xs + lane, mask=ok, other=0.0)
    root = tl.full([BLOCK], 2147483647, tl.int32)
    for step in range(n_grid):  # expect: common-retired-lanes-loop
        a = tl.load(coef + step)
        y = a * (x0 + step * h)
        root = tl.minimum(root, tl.where(y > 0, step, 2147483647))
    tl.store(out + lane, root, mask=ok)


@triton.jit
def first_over(vals, thresholds, out, n, width, BLOCK: tl.constexpr):
    r = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    valid = r < n
    limit = tl.load(thresholds + r, mask=valid, other=0.0)
    at = tl.zeros([BLOCK], dtype=tl.int32) - 1
    for c in range(width):  # expect: common-retired-lanes-loop
        v = tl.load(vals + r * width + c, mask=valid, other=0.0)
        at = tl.where((v > limit) & (at == -1), c, at)
    tl.store(out + r, at, mask=valid)


def run(coef, xs, out, n, n_grid, h, vals, thresholds, out2, width):
    sign_change[(triton.cdiv(n, 128),)](coef, xs, out, n, n_grid, h, BLOCK=128)
    first_over[(triton.cdiv(n, 128),)](vals, thresholds, out2, n, width, BLOCK=128)
