"""Per-tensor int8 quantisation: an absmax kernel (one tl.max per program, one atomic per program), then a quantise kernel."""
import torch
import triton
import triton.language as tl


@triton.jit
def absmax_kernel(x_ptr, amax_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.atomic_max(amax_ptr, tl.max(tl.abs(x), axis=0))


@triton.jit
def quantize_kernel(x_ptr, amax_ptr, q_ptr, scale_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    scale = tl.maximum(tl.load(amax_ptr), 1e-5) * (1.0 / 127.0)
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    q = tl.minimum(tl.maximum(tl.floor(tl.div_rn(x, scale) + 0.5), -127.0), 127.0)
    tl.store(q_ptr + offs, q.to(tl.int8), mask=mask)
    if pid == 0:
        tl.store(scale_ptr, scale)


def run(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    n = x.numel()
    amax = torch.zeros(1, dtype=torch.float32, device=x.device)
    q = torch.empty(x.shape, dtype=torch.int8, device=x.device)
    scale = torch.empty(1, dtype=torch.float32, device=x.device)
    BLOCK = 4096
    grid = (triton.cdiv(n, BLOCK),)
    absmax_kernel[grid](x, amax, n, BLOCK=BLOCK, num_warps=4)
    quantize_kernel[grid](x, amax, q, scale, n, BLOCK=BLOCK, num_warps=4)
    return q, scale
