"""LAMB stage 2 (apex multi_tensor_lamb_stage2) for one parameter, ported to triton-ascend from the GPU
kernel: trust ratio from the two squared norms, then p - lr * ratio * u over the flat tensor."""
import torch
import triton
import triton.language as tl


@triton.jit
def _trust_ratio(w_sq_ptr, u_sq_ptr):
    w = tl.sqrt(tl.load(w_sq_ptr))
    u = tl.sqrt(tl.load(u_sq_ptr))
    return tl.where((w > 0) & (u > 0), w / u, 1.0)


@triton.jit
def lamb_stage2_kernel(p_ptr, u_ptr, out_ptr, w_sq_ptr, u_sq_ptr, n, lr, BLOCK: tl.constexpr):
    step = lr * _trust_ratio(w_sq_ptr, u_sq_ptr)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    p = tl.load(p_ptr + offs, mask=mask)
    u = tl.load(u_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, p - step * u, mask=mask)


class LambStage2:
    BLOCK = 2048

    def __call__(self, param, update, w_sq, u_sq, lr):
        n = param.numel()
        out = torch.empty_like(param)
        grid = (triton.cdiv(n, self.BLOCK),)
        lamb_stage2_kernel[grid](param, update, out, w_sq, u_sq, n, lr, BLOCK=self.BLOCK)
        return out


_apply = LambStage2()


def run(param, update, w_sq, u_sq, lr) -> torch.Tensor:
    return _apply(param, update, w_sq, u_sq, lr)
