"""torchaudio deemphasis as a triton-ascend kernel: one program per row walks the waveform in 4,096-sample
UB blocks; inside a block the recurrence y = coeff * y_prev + x is an associative scan over (coeff^k, x)
pairs, and the block's last output is carried into the next block."""
import torch
import triton
import triton.language as tl

BLOCK = 4096  # 16 KB fp32 per operand: x, the two scan operands and y stay well inside the 192 KB UB


@triton.jit
def _affine_combine(a1, b1, a2, b2):
    return a1 * a2, a2 * b1 + b2


@triton.jit
def deemphasis_kernel(x_ptr, y_ptr, T, coeff, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    lanes = tl.arange(0, BLOCK)
    carry = tl.zeros([], dtype=tl.float32)
    for start in range(0, T, BLOCK):
        offs = start + lanes
        mask = offs < T
        x = tl.load(x_ptr + row * T + offs, mask=mask, other=0.0)
        a = tl.zeros([BLOCK], dtype=tl.float32) + coeff
        a_pre, b_pre = tl.associative_scan((a, x), 0, _affine_combine)
        y = a_pre * carry + b_pre
        tl.store(y_ptr + row * T + offs, y, mask=mask)
        carry = tl.sum(tl.where(lanes == BLOCK - 1, y, 0.0), axis=0)


def run(x: torch.Tensor, coeff: float) -> torch.Tensor:
    R, T = x.shape
    y = torch.empty_like(x)
    deemphasis_kernel[(R,)](x, y, T, coeff, BLOCK=BLOCK)
    return y
