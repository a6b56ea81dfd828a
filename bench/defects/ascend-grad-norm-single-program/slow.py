"""Global gradient norm on triton-ascend, ported as one program that walks the whole buffer."""
import torch
import triton
import triton.language as tl


@triton.jit
def grad_norm_kernel(g_ptr, out_ptr, N, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, N, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        g = tl.load(g_ptr + offs, mask=offs < N, other=0.0)
        acc += g * g
    tl.store(out_ptr, tl.sqrt(tl.sum(acc, axis=0)))


def run(grad: torch.Tensor) -> torch.Tensor:
    out = torch.empty((), dtype=torch.float32, device=grad.device)
    grad_norm_kernel[(1,)](grad, out, grad.numel(), BLOCK=8192)
    return out
