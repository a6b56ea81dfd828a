"""nll_loss (mean, weighted, ignore_index): programs of 1024 targets add into a running numerator and denominator."""
import torch
import triton
import triton.language as tl


@triton.jit
def _accumulate(total_ptr, values, mask):
    """Add a block of per-target values into one running total."""
    tl.atomic_add(total_ptr + tl.zeros_like(values).to(tl.int32), values, mask=mask)


@triton.jit
def nll_loss_kernel(logp_ptr, target_ptr, weight_ptr, num_ptr, den_ptr, T, C, ignore_index,
                    BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    in_range = offs < T
    tgt = tl.load(target_ptr + offs, mask=in_range, other=ignore_index)
    keep = in_range & (tgt != ignore_index)
    w = tl.load(weight_ptr + tgt, mask=keep, other=0.0)
    lp = tl.load(logp_ptr + offs.to(tl.int64) * C + tgt, mask=keep, other=0.0)
    _accumulate(num_ptr, -w * lp, keep)
    _accumulate(den_ptr, w, keep)


@triton.jit
def divide_kernel(num_ptr, den_ptr, out_ptr):
    tl.store(out_ptr, tl.load(num_ptr) / tl.load(den_ptr))


def run(logp: torch.Tensor, target: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    T, C = logp.shape
    num = torch.zeros((1,), device=logp.device, dtype=torch.float32)
    den = torch.zeros((1,), device=logp.device, dtype=torch.float32)
    nll_loss_kernel[(triton.cdiv(T, 1024),)](logp, target, weight, num, den, T, C, -100, BLOCK=1024)
    out = torch.empty((), device=logp.device, dtype=logp.dtype)
    divide_kernel[(1,)](num, den, out)
    return out
