"""threshold_backward: both inputs loaded under the bounds mask, the threshold applied with tl.where."""
import torch
import triton
import triton.language as tl


@triton.heuristics({"BLOCK": lambda args: 4096 if args["n"] >= (1 << 20) else 1024})
@triton.jit
def threshold_backward_kernel(grad_ptr, x_ptr, out_ptr, n, threshold, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    grad = tl.load(grad_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, tl.where(x > threshold, grad, 0.0), mask=mask)


def run(grad: torch.Tensor, x: torch.Tensor, threshold: float) -> torch.Tensor:
    out = torch.empty_like(grad)
    n = grad.numel()
    threshold_backward_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](grad, x, out, n, threshold)
    return out
