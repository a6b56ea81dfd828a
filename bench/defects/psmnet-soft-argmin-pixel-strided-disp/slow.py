"""Soft-argmin disparity regression: softmax over the disparity axis of each pixel, then the expectation."""
import torch
import triton
import triton.language as tl


@triton.jit
def _softmax_expect(x, dval):
    m = tl.max(x, axis=0)
    e = tl.exp(x - m)
    return tl.sum(e * dval, axis=0) / tl.sum(e, axis=0)


@triton.jit
def disparity_regression_kernel(cost_ptr, out_ptr, D, HW, BLOCK_D: tl.constexpr):
    pid = tl.program_id(0)
    b = pid // HW
    p = pid % HW
    d = tl.arange(0, BLOCK_D)
    dm = d < D
    x = tl.load(cost_ptr + b * D * HW + d * HW + p, mask=dm, other=float("-inf"))
    tl.store(out_ptr + pid, _softmax_expect(x, d.to(tl.float32)))


def run(cost: torch.Tensor) -> torch.Tensor:
    B, D, H, W = cost.shape
    out = torch.empty((B, H, W), device=cost.device, dtype=cost.dtype)
    HW = H * W
    cfg = {"BLOCK_D": triton.next_power_of_2(D), "num_warps": 4}
    grid = (B * HW,)
    disparity_regression_kernel[grid](cost, out, D, HW, **cfg)
    return out
