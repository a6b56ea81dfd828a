"""bitsandbytes-style quantize_blockwise: one program per block computes the absmax, then finds each scaled value's place in the sorted code with an 8-step branchless binary search and picks the nearer of the two bracketing codes."""
import torch
import triton
import triton.language as tl


@triton.jit
def _nearest_code(code_ptr, xn, NCODE: tl.constexpr, LOG2_NCODE: tl.constexpr):
    # pos ends as the number of codes <= xn (at most NCODE - 1): code[pos - 1] <= xn < code[pos]
    pos = tl.zeros(xn.shape, dtype=tl.int32)
    for i in tl.static_range(LOG2_NCODE):
        step = NCODE >> (i + 1)
        probe = tl.load(code_ptr + pos + (step - 1))
        pos = tl.where(probe <= xn, pos + step, pos)
    lo = tl.maximum(pos - 1, 0)
    below = tl.load(code_ptr + lo)
    above = tl.load(code_ptr + pos)
    return tl.where(tl.abs(xn - below) <= tl.abs(xn - above), lo, pos)


@triton.jit
def quantize_blockwise_kernel(a_ptr, code_ptr, q_ptr, absmax_ptr, n,
                              BLOCKSIZE: tl.constexpr, NCODE: tl.constexpr, LOG2_NCODE: tl.constexpr):
    block = tl.program_id(0)
    offs = block.to(tl.int64) * BLOCKSIZE + tl.arange(0, BLOCKSIZE)
    mask = offs < n
    x = tl.load(a_ptr + offs, mask=mask, other=0.0)
    absmax = tl.max(tl.abs(x), axis=0)
    tl.store(absmax_ptr + block, absmax)
    idx = _nearest_code(code_ptr, x * (1.0 / absmax), NCODE, LOG2_NCODE)
    tl.store(q_ptr + offs, idx.to(tl.uint8), mask=mask)


def quantize_blockwise(a: torch.Tensor, code: torch.Tensor, blocksize: int = 4096) -> tuple:
    n = a.numel()
    nblocks = triton.cdiv(n, blocksize)
    ncode = code.numel()
    q = torch.empty(a.shape, dtype=torch.uint8, device=a.device)
    absmax = torch.empty(nblocks, dtype=torch.float32, device=a.device)
    quantize_blockwise_kernel[(nblocks,)](a, code, q, absmax, n, BLOCKSIZE=blocksize, NCODE=ncode,
                                          LOG2_NCODE=ncode.bit_length() - 1, num_warps=4)
    return q, absmax


def run(a: torch.Tensor, code: torch.Tensor, blocksize: int) -> tuple:
    return quantize_blockwise(a, code, blocksize)
