"""repeat_interleave over rows: output offsets from an on-device cumsum, then one launch with a program per input row."""
import torch
import triton
import triton.language as tl


@triton.jit
def row_offsets_kernel(repeats_ptr, start_ptr, M, BLOCK: tl.constexpr):
    i = tl.arange(0, BLOCK)
    r = tl.load(repeats_ptr + i, mask=i < M, other=0)
    tl.store(start_ptr + i, tl.cumsum(r, 0) - r, mask=i < M)   # exclusive prefix sum


@triton.jit
def repeat_rows_kernel(x_ptr, repeats_ptr, start_ptr, out_ptr, D, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < D
    r = tl.load(repeats_ptr + row)
    start = tl.load(start_ptr + row)
    v = tl.load(x_ptr + row * D + cols, mask=mask)
    for k in range(r):
        tl.store(out_ptr + (start + k) * D + cols, v, mask=mask)


def run(x: torch.Tensor, repeats: torch.Tensor) -> torch.Tensor:
    M, D = x.shape
    total = sum(repeats.tolist())
    out = torch.empty((total, D), dtype=x.dtype, device=x.device)
    start = torch.empty(M, dtype=torch.int64, device=x.device)
    row_offsets_kernel[(1,)](repeats, start, M, BLOCK=triton.next_power_of_2(M))
    repeat_rows_kernel[(M, triton.cdiv(D, 1024))](x, repeats, start, out, D, BLOCK=1024)
    return out
