"""apply_temperature: the in-place kernel (logits.div_), run on a copy so the caller's logits stay intact."""
import torch
import triton
import triton.language as tl


@triton.jit
def temperature_inplace_kernel(logits_ptr, temp_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < V
    t = tl.load(temp_ptr + row)
    t = tl.where(t == 0.0, 1.0, t)          # greedy requests are argmax'ed later; leave them unscaled
    x = tl.load(logits_ptr + row * V + cols, mask=mask)
    tl.store(logits_ptr + row * V + cols, x / t, mask=mask)


@triton.jit
def copy_kernel(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=mask), mask=mask)


def _clone(x: torch.Tensor) -> torch.Tensor:
    """x.clone() as a kernel: the sampler keeps the caller's logits intact."""
    out = torch.empty_like(x)
    copy_kernel[(triton.cdiv(x.numel(), 4096),)](x, out, x.numel(), BLOCK=4096, num_warps=4)
    return out


def run(logits: torch.Tensor, temp: torch.Tensor) -> torch.Tensor:
    B, V = logits.shape
    out = _clone(logits)
    BLOCK = 8192
    temperature_inplace_kernel[(B, triton.cdiv(V, BLOCK))](out, temp, V, BLOCK=BLOCK, num_warps=4)
    return out
