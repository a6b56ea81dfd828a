"""masked_whiten in Triton: per-block partial moments over the whole grid, one small program folding the
partials into mean and rstd, then an elementwise apply."""
import torch
import triton
import triton.language as tl


@triton.jit
def whiten_partials_kernel(x_ptr, m_ptr, part_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    inb = offs < n
    x = tl.load(x_ptr + offs, mask=inb, other=0.0)
    w = tl.load(m_ptr + offs, mask=inb, other=0).to(tl.float32)
    tl.store(part_ptr + pid * 3, tl.sum(x * w, axis=0))
    tl.store(part_ptr + pid * 3 + 1, tl.sum(x * x * w, axis=0))
    tl.store(part_ptr + pid * 3 + 2, tl.sum(w, axis=0))


@triton.jit
def whiten_finalize_kernel(part_ptr, stats_ptr, num_parts, eps, BLOCK_P: tl.constexpr):
    acc_s = tl.zeros([BLOCK_P], dtype=tl.float32)
    acc_q = tl.zeros([BLOCK_P], dtype=tl.float32)
    acc_c = tl.zeros([BLOCK_P], dtype=tl.float32)
    for start in range(0, num_parts, BLOCK_P):
        p = start + tl.arange(0, BLOCK_P)
        pm = p < num_parts
        acc_s += tl.load(part_ptr + p * 3, mask=pm, other=0.0)
        acc_q += tl.load(part_ptr + p * 3 + 1, mask=pm, other=0.0)
        acc_c += tl.load(part_ptr + p * 3 + 2, mask=pm, other=0.0)
    s = tl.sum(acc_s, axis=0)
    q = tl.sum(acc_q, axis=0)
    c = tl.sum(acc_c, axis=0)
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
    BLOCK = 4096
    num_parts = triton.cdiv(n, BLOCK)
    parts = torch.empty((num_parts, 3), dtype=torch.float32, device=values.device)
    stats = torch.empty(2, dtype=torch.float32, device=values.device)
    out = torch.empty_like(values)
    whiten_partials_kernel[(num_parts,)](values, mask, parts, n, BLOCK=BLOCK, num_warps=8)
    whiten_finalize_kernel[(1,)](parts, stats, num_parts, eps, BLOCK_P=1024, num_warps=4)
    whiten_apply_kernel[(num_parts,)](values, stats, out, n, BLOCK=BLOCK, num_warps=8)
    return out


def run(values: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    return masked_whiten(values, mask)
