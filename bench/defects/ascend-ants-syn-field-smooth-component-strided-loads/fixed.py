"""Separable Gaussian smoothing of a [Z, Y, X, 3] displacement field: one 1-D pass per axis, zero outside."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK = 2048


@triton.jit
def _smooth_axis(src, dst, taps, n_rows, row_len, stride, TAPS: tl.constexpr, BLOCK: tl.constexpr):
    # a row is the run of fp32 values that one axis pass convolves (row_len values, neighbours `stride`
    # values apart); the interleaved components share the taps, so a tap is one contiguous shifted load
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    per_row = tl.cdiv(row_len, BLOCK)
    for blk in range(pid, n_rows * per_row, nprog):
        row = blk // per_row
        v = (blk - row * per_row) * BLOCK + tl.arange(0, BLOCK)
        base = row * row_len
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        for k in tl.static_range(TAPS):
            q = v + (k - TAPS // 2) * stride
            u = tl.load(src + base + q, mask=(q >= 0) & (q < row_len), other=0.0)
            acc += tl.load(taps + k) * u
        tl.store(dst + base + v, acc, mask=v < row_len)


def run(field: torch.Tensor, taps: torch.Tensor) -> torch.Tensor:
    Z, Y, X, C = field.shape
    n_taps = taps.shape[0]
    a = torch.empty_like(field)
    b = torch.empty_like(field)
    passes = ((field, a, Z * Y, X * C, C),              # along x
              (a, b, Z, Y * X * C, X * C),              # along y
              (b, a, 1, Z * Y * X * C, Y * X * C))      # along z
    for src, dst, n_rows, row_len, stride in passes:
        grid = (min(_VECTOR_CORES, n_rows * triton.cdiv(row_len, BLOCK)),)
        _smooth_axis[grid](src, dst, taps, n_rows, row_len, stride, TAPS=n_taps, BLOCK=BLOCK)
    return a
