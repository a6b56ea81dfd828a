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
def _rolling_rv(mid, rv, T, W, row_stride, BLOCK: tl.constexpr, W_POW2: tl.constexpr):
    s = tl.program_id(0)
    t0 = tl.program_id(1) * BLOCK
    t = t0 + tl.arange(0, BLOCK)
    ok = t < T
    row = mid + s * row_stride
    # window of t0 - 1 (seconds t0 - W .. t0 - 1), then slide it through the block with two running prefixes:
    # win(t) = head + sum_{t0..t} r^2 - sum_{t0-W..t-W} r^2
    k = tl.arange(0, W_POW2)
    head = tl.sum(_sq_log_return(row, t0 - W + k, k < W), axis=0)
    added = tl.cumsum(_sq_log_return(row, t, ok), axis=0)
    dropped = tl.cumsum(_sq_log_return(row, t - W, ok), axis=0)
    acc = tl.maximum(head + added - dropped, 0.0)
    tl.store(rv + s * row_stride + t, tl.sqrt(acc), mask=ok)


def run(mid: torch.Tensor, W: int) -> torch.Tensor:
    n_inst, T = mid.shape
    rv = torch.empty_like(mid)
    grid = (n_inst, triton.cdiv(T, BLOCK))
    _rolling_rv[grid](mid, rv, T, W, mid.stride(0), BLOCK=BLOCK, W_POW2=triton.next_power_of_2(W))
    return rv
