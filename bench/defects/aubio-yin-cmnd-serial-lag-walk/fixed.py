"""YIN cumulative mean normalized difference, one program per analysis frame."""
import torch
import triton
import triton.language as tl

TINY = tl.constexpr(1.1754943508222875e-38)


@triton.jit
def _yin_cmnd(d, out, L, stride_d, stride_o, BLOCK: tl.constexpr):
    frame = tl.program_id(0)
    tau = tl.arange(0, BLOCK)
    mask = tau < L
    x = tl.load(d + frame * stride_d + tau, mask=mask, other=0.0)
    x = tl.where(tau > 0, x, 0.0)
    running = tl.cumsum(x, axis=0)
    cmnd = x * tau.to(tl.float32) / (running + TINY)
    cmnd = tl.where(tau == 0, 1.0, cmnd)
    tl.store(out + frame * stride_o + tau, cmnd, mask=mask)


def run(d: torch.Tensor) -> torch.Tensor:
    N, L = d.shape
    out = torch.empty(N, L, device=d.device, dtype=torch.float32)
    BLOCK = triton.next_power_of_2(L)
    _yin_cmnd[(N,)](d, out, L, d.stride(0), out.stride(0), BLOCK=BLOCK, num_warps=4)
    return out
