"""Unscale + inf/nan check + fp32 gradient accumulation for triton-ascend: one pass, one program per vector
core over a contiguous slice of the gradient bucket."""
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
def accumulate_unscaled_kernel(main_ptr, grad_ptr, inv_scale_ptr, out_ptr, found_ptr, n, chunk,
                               BLOCK: tl.constexpr):
    start, end = _core_slice(n, chunk)
    inv_scale = tl.load(inv_scale_ptr)
    flag = 0.0
    for off in range(start, end, BLOCK):
        offs = off + tl.arange(0, BLOCK)
        m = offs < end
        g = tl.load(grad_ptr + offs, mask=m, other=0.0).to(tl.float32) * inv_scale
        acc = tl.load(main_ptr + offs, mask=m, other=0.0)
        tl.store(out_ptr + offs, acc + g, mask=m)
        flag = tl.maximum(flag, tl.max(_nonfinite(g).to(tl.float32), axis=0))
    tl.atomic_max(found_ptr, flag)


def run(main_grad: torch.Tensor, grad: torch.Tensor, inv_scale: torch.Tensor) -> tuple:
    n = grad.numel()
    out = torch.empty_like(main_grad)
    found_inf = torch.zeros(1, dtype=torch.float32, device=grad.device)
    block = 8192
    chunk = triton.cdiv(triton.cdiv(n, block), NUM_VECTOR_CORES) * block
    grid = (triton.cdiv(n, chunk),)
    accumulate_unscaled_kernel[grid](main_grad, grad, inv_scale, out, found_inf, n, chunk, BLOCK=block)
    return out, found_inf
