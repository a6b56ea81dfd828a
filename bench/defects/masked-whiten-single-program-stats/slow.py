"""masked_whiten ported to Triton: a statistics kernel that folds the whole masked batch into mean and rstd,
then an elementwise apply."""
import torch
import triton
import triton.language as tl


@triton.jit
def _masked_moments(x_ptr, m_ptr, n, BLOCK: tl.constexpr):
    acc_s = tl.zeros([BLOCK], dtype=tl.float32)
    acc_q = tl.zeros([BLOCK], dtype=tl.float32)
    acc_c = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        inb = offs < n
        x = tl.load(x_ptr + offs, mask=inb, other=0.0)
        w = tl.load(m_ptr + offs, mask=inb, other=0).to(tl.float32)
        acc_s += x * w
        acc_q += x * x * w
        acc_c += w
    return tl.sum(acc_s, axis=0), tl.sum(acc_q, axis=0), tl.sum(acc_c, axis=0)


@triton.jit
def whiten_stats_kernel(x_ptr, m_ptr, stats_ptr, n, eps, BLOCK: tl.constexpr):
    s, q, c = _masked_moments(x_ptr, m_ptr, n, BLOCK)
    mean = s / c
    var = (q - s * mean) / (c - 1.0)          # unbiased, as masked_var(unbiased=True)
    tl.store(stats_ptr, mean)
    tl.store(stats_ptr + 1, 1.0 / tl.sqrt(var + eps))


@triton.jit
def whiten_apply_kernel(x_ptr, stats_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inb = offs < n
    mean = tl.load(stats_ptr)
    rstd = tl.load(stats_ptr + 1)
    x = tl.load(x_ptr + offs, mask=inb, other=0.0)
    tl.store(out_ptr + offs, (x - mean) * rstd, mask=inb)


def masked_whiten(values: torch.Tensor, mask: torch.Tensor, eps: float = 1e-8) -> torch.Tensor:
    n = values.numel()
    stats = torch.empty(2, dtype=torch.float32, device=values.device)
    out = torch.empty_like(values)
    BLOCK = 4096
    whiten_stats_kernel[(1,)](values, mask, stats, n, eps, BLOCK=BLOCK, num_warps=8)
    whiten_apply_kernel[(triton.cdiv(n, BLOCK),)](values, stats, out, n, BLOCK=BLOCK, num_warps=8)
    return out


def run(values: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    return masked_whiten(values, mask)
