# backend: cuda
import triton
import triton.language as tl


@triton.jit
def causal_softmax(x_ptr, out_ptr, S, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    query = row % S
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * S + cols, mask=cols < S, other=0.0)
    x = tl.where((cols < S) & (cols <= query), x, -float("inf"))  # expect: common-mask-after-load
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * S + cols, e / tl.sum(e, axis=0), mask=cols < S)
