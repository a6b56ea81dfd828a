"""Unscale + inf/nan check + fp32 gradient accumulation for triton-ascend: one program per vector core over a
contiguous slice of the gradient bucket; unscale, check and accumulate as GradScaler and the DDP hook do."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _nonfinite(x):
    return (x != x) | (tl.abs(x) == float("inf"))


@triton.jit
def _core_slice(n, chunk):
    start = tl.program_id(0) * chunk
    return start, tl.minimum(start + chunk, n)


@triton.jit
def unscale_kernel(grad_ptr, inv_scale_ptr, unscaled_ptr, n, chunk, BLOCK: tl.constexpr):
    start, end = _core_slice(n, chunk)
    inv_scale = tl.load(inv_scale_ptr)
    for off in range(start, end, BLOCK):
        offs = off + tl.arange(0, BLOCK)
        m = offs < end
        g = tl.load(grad_ptr + offs, mask=m, other=0.0).to(tl.float32)
        tl.store(unscaled_ptr + offs, g * inv_scale, mask=m)


@triton.jit
def nonfinite_check_kernel(x_ptr, found_ptr, n, chunk, BLOCK: tl.constexpr):
    start, end = _core_slice(n, chunk)
    flag = 0.0
    for off in range(start, end, BLOCK):
        offs = off + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < end, other=0.0)
        flag = tl.maximum(flag, tl.max(_nonfinite(x).to(tl.float32), axis=0))
    tl.atomic_max(found_ptr, flag)


@triton.jit
def accumulate_kernel(main_ptr, g_ptr, out_ptr, n, chunk, BLOCK: tl.constexpr):
    start, end = _core_slice(n, chunk)
    for off in range(start, end, BLOCK):
        offs = off + tl.arange(0, BLOCK)
        m = offs < end
        acc = tl.load(main_ptr + offs, mask=m, other=0.0)
        g = tl.load(g_ptr + offs, mask=m, other=0.0)
        tl.store(out_ptr + offs, acc + g, mask=m)


def run(main_grad: torch.Tensor, grad: torch.Tensor, inv_scale: torch.Tensor) -> tuple:
    n = grad.numel()
    out = torch.empty_like(main_grad)
    found_inf = torch.zeros(1, dtype=torch.float32, device=grad.device)
    unscaled = torch.empty(n, dtype=torch.float32, device=grad.device)
    block = 8192
    chunk = triton.cdiv(triton.cdiv(n, block), NUM_VECTOR_CORES) * block
    grid = (triton.cdiv(n, chunk),)
    unscale_kernel[grid](grad, inv_scale, unscaled, n, chunk, BLOCK=block)
    nonfinite_check_kernel[grid](unscaled, found_inf, n, chunk, BLOCK=block)
    accumulate_kernel[grid](main_grad, unscaled, out, n, chunk, BLOCK=block)
    return out, found_inf
