"""snnTorch Leaky BPTT: G_t = dL/dS_t * atan'(U_t - thr) + beta * G_{t+1}, one backward walk per block."""
import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _leaky_input_grad(mem, grad_spk, grad_x, steps, n, beta, threshold, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    slope = 1.5707963267948966 * alpha
    peak = 0.5 * alpha
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for r in range(steps):
        s = steps - 1 - r
        u = tl.load(mem + s * n + offs, mask=mask, other=0.0)
        g = tl.load(grad_spk + s * n + offs, mask=mask, other=0.0)
        k = slope * (u - threshold)
        acc = g * (peak / (1.0 + k * k)) + beta * acc
        tl.store(grad_x + s * n + offs, acc, mask=mask)


def run(mem, grad_spk, beta, threshold, alpha):
    steps = mem.shape[0]
    n = mem.shape[1] * mem.shape[2]
    grad_x = torch.empty_like(mem)
    grid = (triton.cdiv(n, BLOCK),)
    _leaky_input_grad[grid](mem, grad_spk, grad_x, steps, n, beta, threshold, alpha,
                            BLOCK=BLOCK, num_warps=4)
    return grad_x
