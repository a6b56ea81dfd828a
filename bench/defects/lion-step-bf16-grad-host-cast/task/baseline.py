"""Lion step (lion-pytorch's update_fn) as one Triton kernel over the flattened weight, reading the bf16
gradient directly and widening it in registers."""
import torch
import triton
import triton.language as tl


@triton.jit
def lion_kernel(p_ptr, g_ptr, m_ptr, p_out_ptr, m_out_ptr, n, lr, wd, beta1, beta2, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    p = tl.load(p_ptr + offs, mask=mask)
    g = tl.load(g_ptr + offs, mask=mask).to(tl.float32)
    m = tl.load(m_ptr + offs, mask=mask)
    p = p * (1.0 - lr * wd)
    c = m * beta1 + g * (1.0 - beta1)
    sign = tl.where(c > 0, 1.0, tl.where(c < 0, -1.0, 0.0))
    tl.store(p_out_ptr + offs, p - lr * sign, mask=mask)
    tl.store(m_out_ptr + offs, m * beta2 + g * (1.0 - beta2), mask=mask)


def run(param, grad, exp_avg, lr, beta1, beta2, weight_decay) -> tuple:
    n = param.numel()
    p_out = torch.empty_like(param)
    m_out = torch.empty_like(exp_avg)
    BLOCK = 2048
    lion_kernel[(triton.cdiv(n, BLOCK),)](param, grad, exp_avg, p_out, m_out, n, lr, weight_decay, beta1, beta2,
                                          BLOCK=BLOCK, num_warps=8)
    return p_out, m_out
