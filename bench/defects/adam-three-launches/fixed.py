"""AdamW step in one kernel: param, grad and both moments read once, three results stored."""
import torch
import triton
import triton.language as tl


@triton.jit
def adamw_kernel(p_ptr, g_ptr, m_ptr, v_ptr, p_out, m_out, v_out, n,
                 lr, beta1, beta2, eps, weight_decay, bias1, bias2, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    p = tl.load(p_ptr + offs, mask=mask)
    g = tl.load(g_ptr + offs, mask=mask)
    m = beta1 * tl.load(m_ptr + offs, mask=mask) + (1 - beta1) * g
    v = beta2 * tl.load(v_ptr + offs, mask=mask) + (1 - beta2) * g * g
    update = (m / bias1) / (tl.sqrt(v / bias2) + eps)
    tl.store(p_out + offs, p * (1 - lr * weight_decay) - lr * update, mask=mask)
    tl.store(m_out + offs, m, mask=mask)
    tl.store(v_out + offs, v, mask=mask)


def run(param: torch.Tensor, grad: torch.Tensor, m: torch.Tensor, v: torch.Tensor,
        step: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    lr, beta1, beta2, eps, weight_decay = 1e-3, 0.9, 0.999, 1e-8, 0.01
    p_new, m_new, v_new = torch.empty_like(param), torch.empty_like(m), torch.empty_like(v)
    n = param.numel()
    adamw_kernel[(triton.cdiv(n, 1024),)](param, grad, m, v, p_new, m_new, v_new, n,
                                          lr, beta1, beta2, eps, weight_decay,
                                          1 - beta1**step, 1 - beta2**step, BLOCK=1024)
    return p_new, m_new, v_new
