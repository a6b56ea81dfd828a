"""Adam-mini q/k step: each head folds mean(g^2) into its v_h, then its weights take the AdamW-style update."""
import torch
import triton
import triton.language as tl


@triton.jit
def _moment_and_param(p, g, m, lr, beta1, weight_decay, step_scale, denom):
    m = beta1 * m + (1.0 - beta1) * g
    p = p * (1.0 - lr * weight_decay) - step_scale * m / denom
    return p, m


@triton.jit
def _adam_mini_block_kernel(p_ptr, g_ptr, m_ptr, v_ptr, p_out_ptr, m_out_ptr, v_out_ptr,
                            head_numel, lr, beta1, beta2, eps, weight_decay, step_scale, inv_bc2_sqrt,
                            BLOCK: tl.constexpr):
    head = tl.program_id(0)
    base = head.to(tl.int64) * head_numel
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, head_numel, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < head_numel
        g = tl.load(g_ptr + base + offs, mask=mask, other=0.0)
        acc += g * g
    v = beta2 * tl.load(v_ptr + head) + (1.0 - beta2) * (tl.sum(acc, axis=0) / head_numel)
    tl.store(v_out_ptr + head, v)
    denom = tl.sqrt(v) * inv_bc2_sqrt + eps
    for start in range(0, head_numel, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < head_numel
        p = tl.load(p_ptr + base + offs, mask=mask, other=0.0)
        g = tl.load(g_ptr + base + offs, mask=mask, other=0.0)
        m = tl.load(m_ptr + base + offs, mask=mask, other=0.0)
        p, m = _moment_and_param(p, g, m, lr, beta1, weight_decay, step_scale, denom)
        tl.store(p_out_ptr + base + offs, p, mask=mask)
        tl.store(m_out_ptr + base + offs, m, mask=mask)


def run(param, grad, exp_avg, v_mean, n_heads, step, lr, beta1, beta2, eps, weight_decay):
    head_numel = param.numel() // n_heads
    p_out = torch.empty_like(param)
    m_out = torch.empty_like(exp_avg)
    v_out = torch.empty_like(v_mean)
    step_scale = lr / (1.0 - beta1 ** step)
    inv_bc2_sqrt = 1.0 / (1.0 - beta2 ** step) ** 0.5
    BLOCK = min(triton.next_power_of_2(head_numel), 1024)
    launch = {"num_warps": 4}
    _adam_mini_block_kernel[(n_heads,)](param, grad, exp_avg, v_mean, p_out, m_out, v_out,
                                        head_numel, lr, beta1, beta2, eps, weight_decay, step_scale, inv_bc2_sqrt,
                                        BLOCK=BLOCK, **launch)
    return p_out, m_out, v_out
