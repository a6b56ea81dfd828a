"""flip along the last dim: a 2-D grid of (row, column block), reading the mirrored columns."""
import torch
import triton
import triton.language as tl


@triton.jit
def flip_last_kernel(x_ptr, out_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_ptr + row * N + (N - 1 - cols), mask=mask)
    tl.store(out_ptr + row * N + cols, x, mask=mask)


def _new_output(like: torch.Tensor) -> torch.Tensor:
    """Output buffer for the flip kernels (zeroed so a masked-off tail never leaks stale memory)."""
    return torch.zeros_like(like)


def run(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    out = _new_output(x)
    BLOCK = 2048
    flip_last_kernel[(M, triton.cdiv(N, BLOCK))](x, out, N, BLOCK=BLOCK, num_warps=4)
    return out
