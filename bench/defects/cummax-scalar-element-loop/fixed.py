"""cummax along the last dim: 1024-column blocks scanned with tl.associative_scan on (value, index), the previous blocks' (max, argmax) carried."""
import torch
import triton
import triton.language as tl


@triton.jit
def _max_with_index(v1, i1, v2, i2):
    take2 = v2 >= v1
    return tl.where(take2, v2, v1), tl.where(take2, i2, i1)


@triton.jit
def cummax_kernel(x_ptr, v_ptr, i_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64) * N
    best = float("-inf")
    best_i = 0
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        m = cols < N
        x = tl.load(x_ptr + row + cols, mask=m, other=float("-inf"))
        v, i = tl.associative_scan((x, cols), 0, _max_with_index)
        keep = best > v
        v = tl.where(keep, best, v)
        i = tl.where(keep, best_i, i)
        tl.store(v_ptr + row + cols, v, mask=m)
        tl.store(i_ptr + row + cols, i.to(tl.int64), mask=m)
        last = cols == tl.minimum(start + BLOCK, N) - 1
        best = tl.max(tl.where(last, v, float("-inf")), axis=0)
        best_i = tl.max(tl.where(last, i, -1), axis=0)


def run(x: torch.Tensor) -> tuple:
    M, N = x.shape
    values = torch.empty_like(x)
    indices = torch.empty((M, N), device=x.device, dtype=torch.int64)
    cummax_kernel[(M,)](x, values, indices, N, BLOCK=1024)
    return values, indices
