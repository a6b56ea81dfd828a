"""GRPO loss: per-block partial sums, a reduce kernel, and the masked mean's division done on the host."""
import torch
import triton
import triton.language as tl

EPS = 0.2


@triton.jit
def grpo_partial_kernel(logp_ptr, old_ptr, adv_ptr, mask_ptr, num_ptr, den_ptr, n, T, eps, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    inb = offs < n
    m = tl.load(mask_ptr + offs, mask=inb, other=0).to(tl.float32)
    r = tl.exp(tl.load(logp_ptr + offs, mask=inb, other=0.0) - tl.load(old_ptr + offs, mask=inb, other=0.0))
    a = tl.load(adv_ptr + offs // T, mask=inb, other=0.0)
    per_token = -tl.minimum(r * a, tl.minimum(tl.maximum(r, 1.0 - eps), 1.0 + eps) * a)
    tl.store(num_ptr + pid, tl.sum(per_token * m, axis=0))
    tl.store(den_ptr + pid, tl.sum(m, axis=0))


@triton.jit
def sum_partials_kernel(num_ptr, den_ptr, total_ptr, count_ptr, P, BLOCK: tl.constexpr):
    num = tl.zeros((BLOCK,), dtype=tl.float32)
    den = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, P, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        num += tl.load(num_ptr + offs, mask=offs < P, other=0.0)
        den += tl.load(den_ptr + offs, mask=offs < P, other=0.0)
    tl.store(total_ptr, tl.sum(num, axis=0))
    tl.store(count_ptr, tl.sum(den, axis=0))


@triton.jit
def scale_kernel(x_ptr, out_ptr, factor):
    tl.store(out_ptr, tl.load(x_ptr) * factor)


def run(logp, old_logp, adv, mask) -> torch.Tensor:
    B, T = logp.shape
    n = B * T
    P = triton.cdiv(n, 4096)
    num = torch.empty((P,), device=logp.device, dtype=torch.float32)
    den = torch.empty((P,), device=logp.device, dtype=torch.float32)
    grpo_partial_kernel[(P,)](logp, old_logp, adv, mask, num, den, n, T, EPS, BLOCK=4096, num_warps=8)
    total = torch.empty((1,), device=logp.device, dtype=torch.float32)
    count = torch.empty((1,), device=logp.device, dtype=torch.float32)
    sum_partials_kernel[(1,)](num, den, total, count, P, BLOCK=1024)
    tokens = max(count.item(), 1.0)  # loss normaliser: number of completion tokens
    loss = torch.empty((), device=logp.device, dtype=logp.dtype)
    scale_kernel[(1,)](total, loss, 1.0 / tokens)
    return loss
