"""nll_loss (mean, weighted, ignore_index): per-program partial sums, then one program reduces and divides."""
import torch
import triton
import triton.language as tl


@triton.jit
def nll_loss_kernel(logp_ptr, target_ptr, weight_ptr, num_ptr, den_ptr, T, C, ignore_index,
                    BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    in_range = offs < T
    tgt = tl.load(target_ptr + offs, mask=in_range, other=ignore_index)
    keep = in_range & (tgt != ignore_index)
    w = tl.load(weight_ptr + tgt, mask=keep, other=0.0)
    lp = tl.load(logp_ptr + offs.to(tl.int64) * C + tgt, mask=keep, other=0.0)
    tl.store(num_ptr + pid, tl.sum(-w * lp, axis=0))
    tl.store(den_ptr + pid, tl.sum(w, axis=0))


@triton.jit
def finish_kernel(num_ptr, den_ptr, out_ptr, P, BLOCK: tl.constexpr):
    num = tl.zeros((BLOCK,), dtype=tl.float32)
    den = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, P, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        num += tl.load(num_ptr + offs, mask=offs < P, other=0.0)
        den += tl.load(den_ptr + offs, mask=offs < P, other=0.0)
    tl.store(out_ptr, tl.sum(num, axis=0) / tl.sum(den, axis=0))


def run(logp: torch.Tensor, target: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    T, C = logp.shape
    P = triton.cdiv(T, 1024)
    num = torch.empty((P,), device=logp.device, dtype=torch.float32)
    den = torch.empty((P,), device=logp.device, dtype=torch.float32)
    nll_loss_kernel[(P,)](logp, target, weight, num, den, T, C, -100, BLOCK=1024)
    out = torch.empty((), device=logp.device, dtype=logp.dtype)
    finish_kernel[(1,)](num, den, out, P, BLOCK=1024)
    return out
