"""EMA update: flat elementwise kernel, 16 fp32 per thread (BLOCK = ELEMS_PER_THREAD * 32 * NUM_WARPS = 2048)."""
import torch
import triton
import triton.language as tl

NUM_WARPS = 4
ELEMS_PER_THREAD = 16


@triton.jit
def ema_kernel(ema_ptr, p_ptr, out_ptr, n, weight, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    e = tl.load(ema_ptr + offs, mask=mask)
    p = tl.load(p_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, e + weight * (p - e), mask=mask)


def run(ema: torch.Tensor, param: torch.Tensor, decay: float) -> torch.Tensor:
    out = torch.empty_like(ema)
    n = ema.numel()
    block = ELEMS_PER_THREAD * 32 * NUM_WARPS
    ema_kernel[(triton.cdiv(n, block),)](ema, param, out, n, 1.0 - decay, BLOCK=block, num_warps=NUM_WARPS)
    return out
