"""Dynamic per-tensor int8 quantization: a streaming absmax reduction, then a block-parallel quant pass."""
import torch
import triton
import triton.language as tl

QMAX = 127.0
MIN_SCALE = 1e-10


@triton.jit
def _absmax_kernel(x_ptr, amax_ptr, n, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n, other=0.0).to(tl.float32)
        acc = tl.maximum(acc, tl.abs(x))
    tl.store(amax_ptr, tl.max(acc, axis=0))


@triton.jit
def _scale_from_amax(amax_ptr, QMAX: tl.constexpr, MIN_SCALE: tl.constexpr):
    return tl.maximum(tl.load(amax_ptr) / QMAX, MIN_SCALE)


@triton.jit
def _round_half_away(v):
    return tl.where(v >= 0, tl.floor(v + 0.5), tl.ceil(v - 0.5))


@triton.jit
def _quant_kernel(x_ptr, q_ptr, amax_ptr, scale_ptr, n, QMAX: tl.constexpr, MIN_SCALE: tl.constexpr,
                  BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    scale = _scale_from_amax(amax_ptr, QMAX, MIN_SCALE)
    if pid == 0:
        tl.store(scale_ptr, scale)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0).to(tl.float32)
    q = _round_half_away(tl.clamp(x / scale, -QMAX, QMAX))
    tl.store(q_ptr + offs, q.to(q_ptr.dtype.element_ty), mask=m)


def run(x: torch.Tensor) -> tuple:
    n = x.numel()
    q = torch.empty(x.shape, device=x.device, dtype=torch.int8)
    scale = torch.empty(1, device=x.device, dtype=torch.float32)
    amax = torch.empty(1, device=x.device, dtype=torch.float32)
    BLOCK = 8192
    launch = {"num_warps": 8}
    _absmax_kernel[(1,)](x, amax, n, BLOCK=BLOCK, **launch)
    _quant_kernel[(triton.cdiv(n, BLOCK),)](x, q, amax, scale, n, QMAX=QMAX, MIN_SCALE=MIN_SCALE,
                                            BLOCK=BLOCK, **launch)
    return q, scale
