"""GRPO loss: per-block partial sums, then one program adds them and divides by the token count on the device."""
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
def masked_mean_kernel(num_ptr, den_ptr, out_ptr, P, BLOCK: tl.constexpr):
    num = tl.zeros((BLOCK,), dtype=tl.float32)
    den = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, P, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        num += tl.load(num_ptr + offs, mask=offs < P, other=0.0)
        den += tl.load(den_ptr + offs, mask=offs < P, other=0.0)
    tl.store(out_ptr, tl.sum(num, axis=0) / tl.maximum(tl.sum(den, axis=0), 1.0))


def run(logp, old_logp, adv, mask) -> torch.Tensor:
    B, T = logp.shape
    n = B * T
    P = triton.cdiv(n, 4096)
    num = torch.empty((P,), device=logp.device, dtype=torch.float32)
    den = torch.empty((P,), device=logp.device, dtype=torch.float32)
    grpo_partial_kernel[(P,)](logp, old_logp, adv, mask, num, den, n, T, EPS, BLOCK=4096, num_warps=8)
    loss = torch.empty((), device=logp.device, dtype=logp.dtype)
    masked_mean_kernel[(1,)](num, den, loss, P, BLOCK=1024)
    return loss
