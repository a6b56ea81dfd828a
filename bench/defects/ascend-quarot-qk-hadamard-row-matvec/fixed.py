"""QuaRot online Hadamard rotation of query/key head vectors (x @ H / sqrt(D))."""
import math

import torch
import triton
import triton.language as tl

NUM_CUBE_CORES = 20


@triton.jit
def _head_hadamard_kernel(x_ptr, h_ptr, y_ptr, n_rows, scale, D: tl.constexpr, BLOCK_R: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    d = tl.arange(0, D)
    h = tl.load(h_ptr + d[:, None] * D + d[None, :])
    for rb in range(pid, tl.cdiv(n_rows, BLOCK_R), nprog):
        rows = rb * BLOCK_R + tl.arange(0, BLOCK_R)
        rmask = (rows < n_rows)[:, None]
        x = tl.load(x_ptr + rows[:, None] * D + d[None, :], mask=rmask, other=0.0)
        y = tl.dot(x, h) * scale
        tl.store(y_ptr + rows[:, None] * D + d[None, :], y.to(y_ptr.dtype.element_ty), mask=rmask)


def run(x: torch.Tensor, hadamard: torch.Tensor) -> torch.Tensor:
    D = x.shape[-1]
    xr = x.reshape(-1, D)
    n_rows = xr.shape[0]
    y = torch.empty_like(xr)
    BLOCK_R = 128
    grid = (min(triton.cdiv(n_rows, BLOCK_R), NUM_CUBE_CORES),)
    _head_hadamard_kernel[grid](xr, hadamard, y, n_rows, 1.0 / math.sqrt(D), D=D, BLOCK_R=BLOCK_R)
    return y.view(x.shape)
