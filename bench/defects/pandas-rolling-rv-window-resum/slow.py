"""Rolling realised volatility: sqrt of the sum of the last W squared one-second log returns of the mid."""
import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _sq_log_return(row, u, ok):
    live = ok & (u >= 1)
    a = tl.load(row + u, mask=live, other=1.0)
    b = tl.load(row + u - 1, mask=live, other=1.0)
    r = tl.log(a / b)
    return r * r


@triton.jit
def _rolling_rv(mid, rv, T, W, row_stride, BLOCK: tl.constexpr):
    s = tl.program_id(0)
    t = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    ok = t < T
    row = mid + s * row_stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for k in range(0, W):
        acc += _sq_log_return(row, t - k, ok)
    tl.store(rv + s * row_stride + t, tl.sqrt(acc), mask=ok)


def run(mid: torch.Tensor, W: int) -> torch.Tensor:
    n_inst, T = mid.shape
    rv = torch.empty_like(mid)
    grid = (n_inst, triton.cdiv(T, BLOCK))
    _rolling_rv[grid](mid, rv, T, W, mid.stride(0), BLOCK=BLOCK)
    return rv
