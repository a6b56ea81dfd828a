"""torchaudio deemphasis as a triton-ascend kernel: one program per row runs the recurrence
y = coeff * y_prev + x sample by sample, as the Python loop of the reference does."""
import torch
import triton
import triton.language as tl


@triton.jit
def deemphasis_kernel(x_ptr, y_ptr, T, coeff):
    row = tl.program_id(0)
    y = tl.zeros([], dtype=tl.float32)
    for t in range(0, T):
        x = tl.load(x_ptr + row * T + t)
        y = x + coeff * y
        tl.store(y_ptr + row * T + t, y)


def run(x: torch.Tensor, coeff: float) -> torch.Tensor:
    R, T = x.shape
    y = torch.empty_like(x)
    deemphasis_kernel[(R,)](x, y, T, coeff)
    return y
