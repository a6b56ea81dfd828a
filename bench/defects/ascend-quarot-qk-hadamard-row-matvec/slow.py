"""QuaRot online Hadamard rotation of query/key head vectors (x @ H / sqrt(D))."""
import math

import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _head_hadamard_kernel(x_ptr, h_ptr, y_ptr, n_rows, scale, D: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    d = tl.arange(0, D)
    h = tl.load(h_ptr + d[:, None] * D + d[None, :]).to(tl.float32)
    for r in range(pid, n_rows, nprog):
        x = tl.load(x_ptr + r * D + d).to(tl.float32)
        y = tl.sum(h * x[None, :], axis=1) * scale
        tl.store(y_ptr + r * D + d, y.to(y_ptr.dtype.element_ty))


def run(x: torch.Tensor, hadamard: torch.Tensor) -> torch.Tensor:
    D = x.shape[-1]
    xr = x.reshape(-1, D)
    n_rows = xr.shape[0]
    y = torch.empty_like(xr)
    grid = (min(n_rows, NUM_VECTOR_CORES),)
    _head_hadamard_kernel[grid](xr, hadamard, y, n_rows, 1.0 / math.sqrt(D), D=D)
    return y.view(x.shape)
