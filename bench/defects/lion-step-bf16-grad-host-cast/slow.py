"""Lion step (lion-pytorch's update_fn) as one Triton kernel over the flattened weight; the bf16 gradient
is first widened to an fp32 copy so the step kernel sees the same dtype as the master weights."""
import torch
import triton
import triton.language as tl


@triton.jit
def widen_kernel(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=mask).to(tl.float32), mask=mask)


@triton.jit
def lion_kernel(p_ptr, g_ptr, m_ptr, p_out_ptr, m_out_ptr, n, lr, wd, beta1, beta2, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    p = tl.load(p_ptr + offs, mask=mask)
    g = tl.load(g_ptr + offs, mask=mask)
    m = tl.load(m_ptr + offs, mask=mask)
    p = p * (1.0 - lr * wd)
    c = m * beta1 + g * (1.0 - beta1)
    sign = tl.where(c > 0, 1.0, tl.where(c < 0, -1.0, 0.0))
    tl.store(p_out_ptr + offs, p - lr * sign, mask=mask)
    tl.store(m_out_ptr + offs, m * beta2 + g * (1.0 - beta2), mask=mask)


def as_fp32(t: torch.Tensor) -> torch.Tensor:
    if t.dtype == torch.float32:
        return t
    out = torch.empty(t.shape, dtype=torch.float32, device=t.device)
    widen_kernel[(triton.cdiv(t.numel(), 4096),)](t, out, t.numel(), BLOCK=4096)
    return out


def run(param, grad, exp_avg, lr, beta1, beta2, weight_decay) -> tuple:
    # the kernel does its math in fp32: hand it an fp32 gradient like the master weights
    grad = as_fp32(grad)
    n = param.numel()
    p_out = torch.empty_like(param)
    m_out = torch.empty_like(exp_avg)
    BLOCK = 2048
    lion_kernel[(triton.cdiv(n, BLOCK),)](param, grad, exp_avg, p_out, m_out, n, lr, weight_decay, beta1, beta2,
                                          BLOCK=BLOCK, num_warps=8)
    return p_out, m_out
