"""AdamW step as three kernels: update m, update v, then the parameter from the new moments."""
import torch
import triton
import triton.language as tl


@triton.jit
def moment_kernel(g_ptr, m_ptr, out_ptr, n, beta, SQUARE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    g = tl.load(g_ptr + offs, mask=mask)
    if SQUARE:
        g = g * g
    tl.store(out_ptr + offs, beta * tl.load(m_ptr + offs, mask=mask) + (1 - beta) * g, mask=mask)


@triton.jit
def param_kernel(p_ptr, m_ptr, v_ptr, p_out, n, lr, eps, weight_decay, bias1, bias2,
                 BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    p = tl.load(p_ptr + offs, mask=mask)
    m = tl.load(m_ptr + offs, mask=mask)
    v = tl.load(v_ptr + offs, mask=mask)
    update = (m / bias1) / (tl.sqrt(v / bias2) + eps)
    tl.store(p_out + offs, p * (1 - lr * weight_decay) - lr * update, mask=mask)


def run(param: torch.Tensor, grad: torch.Tensor, m: torch.Tensor, v: torch.Tensor,
        step: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    lr, beta1, beta2, eps, weight_decay = 1e-3, 0.9, 0.999, 1e-8, 0.01
    p_new, m_new, v_new = torch.empty_like(param), torch.empty_like(m), torch.empty_like(v)
    n = param.numel()
    grid = (triton.cdiv(n, 1024),)
    moment_kernel[grid](grad, m, m_new, n, beta1, SQUARE=False, BLOCK=1024)   # exp_avg.lerp_(grad)
    moment_kernel[grid](grad, v, v_new, n, beta2, SQUARE=True, BLOCK=1024)    # exp_avg_sq.mul_().addcmul_()
    param_kernel[grid](param, m_new, v_new, p_new, n, lr, eps, weight_decay,
                       1 - beta1**step, 1 - beta2**step, BLOCK=1024)
    return p_new, m_new, v_new
