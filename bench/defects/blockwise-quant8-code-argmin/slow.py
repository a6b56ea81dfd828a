"""bitsandbytes-style quantize_blockwise: one program per block computes the absmax, then maps each scaled value to its nearest code by comparing it with all 256 code values (argmin of the distances), 32 values at a time."""
import torch
import triton
import triton.language as tl


@triton.jit
def _block_absmax(a_ptr, start, n, BLOCKSIZE: tl.constexpr):
    offs = start + tl.arange(0, BLOCKSIZE)
    x = tl.load(a_ptr + offs, mask=offs < n, other=0.0)
    return tl.max(tl.abs(x), axis=0)


@triton.jit
def _nearest_code(xn, code):
    dist = tl.abs(xn[:, None] - code[None, :])
    return tl.argmin(dist, axis=1)


@triton.jit
def quantize_blockwise_kernel(a_ptr, code_ptr, q_ptr, absmax_ptr, n,
                              BLOCKSIZE: tl.constexpr, NCODE: tl.constexpr, CHUNK: tl.constexpr):
    block = tl.program_id(0)
    start = block.to(tl.int64) * BLOCKSIZE
    absmax = _block_absmax(a_ptr, start, n, BLOCKSIZE)
    tl.store(absmax_ptr + block, absmax)
    inv = 1.0 / absmax
    code = tl.load(code_ptr + tl.arange(0, NCODE))
    for c0 in range(0, BLOCKSIZE, CHUNK):
        offs = start + c0 + tl.arange(0, CHUNK)
        mask = offs < n
        xn = tl.load(a_ptr + offs, mask=mask, other=0.0) * inv
        idx = _nearest_code(xn, code)
        tl.store(q_ptr + offs, idx.to(tl.uint8), mask=mask)


def quantize_blockwise(a: torch.Tensor, code: torch.Tensor, blocksize: int = 4096) -> tuple:
    n = a.numel()
    nblocks = triton.cdiv(n, blocksize)
    q = torch.empty(a.shape, dtype=torch.uint8, device=a.device)
    absmax = torch.empty(nblocks, dtype=torch.float32, device=a.device)
    quantize_blockwise_kernel[(nblocks,)](a, code, q, absmax, n, BLOCKSIZE=blocksize, NCODE=code.numel(), CHUNK=32)
    return q, absmax


def run(a: torch.Tensor, code: torch.Tensor, blocksize: int) -> tuple:
    return quantize_blockwise(a, code, blocksize)
