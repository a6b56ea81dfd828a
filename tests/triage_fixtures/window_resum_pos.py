# backend: cuda
import triton
import triton.language as tl


@triton.jit
def rolling_mean(x, y, T, T_out, W, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    j = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for k in range(0, W):  # expect: common-window-resum
        acc += tl.load(x + row * T + j + k, mask=j < T_out, other=0.0)
    tl.store(y + row * T_out + j, acc / W, mask=j < T_out)
