"""Gate fixture (KernelBench relu): stores only the positive outputs and trusts fresh memory to hold zeros
for the rest."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_scale_kernel(x_ptr, out_ptr, n, scale, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, x * scale, mask=(offs < n) & (x > 0))


class ModelNew(nn.Module):
    def __init__(self, scale: float):
        super().__init__()
        self.scale = scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(x)
        relu_scale_kernel[(triton.cdiv(x.numel(), 512),)](x, out, x.numel(), self.scale, BLOCK=512)
        return out
