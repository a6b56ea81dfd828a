"""Baseline: GLA gate logsigmoid, flat blocks, fp32 math."""
import torch
import triton
import triton.language as tl


@triton.jit
def _log_sigmoid(x):
    """log(sigmoid(x)) = min(x, 0) - log(1 + exp(-|x|)), in fp32."""
    xf = x.to(tl.float32)
    return tl.minimum(xf, 0.0) - tl.log(1.0 + tl.exp(-tl.abs(xf)))


@triton.jit
def logsigmoid_gate_kernel(x_ptr, y_ptr, n, inv_norm, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = _log_sigmoid(x) * inv_norm
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


def run(gk: torch.Tensor, normalizer: float) -> torch.Tensor:
    y = torch.empty_like(gk)
    n = gk.numel()
    logsigmoid_gate_kernel[(triton.cdiv(n, 4096),)](gk, y, n, 1.0 / normalizer, BLOCK=4096, num_warps=8)
    return y
