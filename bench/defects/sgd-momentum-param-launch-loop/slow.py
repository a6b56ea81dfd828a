"""SGD (momentum, nesterov, weight decay) as torch.optim.SGD's _single_tensor_sgd: one kernel launch per parameter."""
import torch
import triton
import triton.language as tl


@triton.jit
def sgd_param_kernel(p_ptr, g_ptr, buf_ptr, p_out_ptr, buf_out_ptr, n, lr, momentum, weight_decay,
                     NESTEROV: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    p = tl.load(p_ptr + offs, mask=mask)
    d_p = tl.load(g_ptr + offs, mask=mask) + weight_decay * p
    buf = momentum * tl.load(buf_ptr + offs, mask=mask) + d_p
    if NESTEROV:
        d_p = d_p + momentum * buf
    else:
        d_p = buf
    tl.store(buf_out_ptr + offs, buf, mask=mask)
    tl.store(p_out_ptr + offs, p - lr * d_p, mask=mask)


class TritonSGD:
    """Holds the hyper-parameters and steps the parameters one tensor at a time."""

    BLOCK = 4096

    def __init__(self, lr: float, momentum: float, weight_decay: float, nesterov: bool = True):
        self.lr, self.momentum, self.weight_decay, self.nesterov = lr, momentum, weight_decay, nesterov

    def step(self, params, grads, bufs, new_params, new_bufs) -> None:
        for p, g, b, p_out, b_out in zip(params, grads, bufs, new_params, new_bufs):
            n = p.numel()
            sgd_param_kernel[(triton.cdiv(n, self.BLOCK),)](
                p, g, b, p_out, b_out, n, self.lr, self.momentum, self.weight_decay,
                NESTEROV=self.nesterov, BLOCK=self.BLOCK)


def run(param, grad, buf, numels, lr, momentum, weight_decay) -> tuple:
    new_param = torch.empty_like(param)
    new_buf = torch.empty_like(buf)
    bounds = [0]
    for n in numels:
        bounds.append(bounds[-1] + n)
    views = [[x[bounds[i]:bounds[i + 1]] for i in range(len(numels))]
             for x in (param, grad, buf, new_param, new_buf)]
    TritonSGD(lr, momentum, weight_decay).step(*views)
    return new_param, new_buf
