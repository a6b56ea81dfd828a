"""Mamba-2 dt preprocessing in one kernel: dt loaded in its dtype, fp32 math in registers, stored in the input dtype."""
import torch
import triton
import triton.language as tl


@triton.jit
def _softplus(x):
    return tl.where(x > 20.0, x, tl.log(1.0 + tl.exp(x)))


@triton.jit
def dt_softplus_kernel(dt_ptr, bias_ptr, out_ptr, T, dt_min, dt_max, H, BLOCK_H: tl.constexpr, BLOCK_T: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_T + tl.arange(0, BLOCK_T)
    heads = tl.arange(0, BLOCK_H)
    offs = rows[:, None].to(tl.int64) * H + heads[None, :]
    m = (rows[:, None] < T) & (heads[None, :] < H)
    dt = tl.load(dt_ptr + offs, mask=m, other=0.0).to(tl.float32) + tl.load(bias_ptr + heads, mask=heads < H, other=0.0)[None, :]
    dt = tl.minimum(tl.maximum(_softplus(dt), dt_min), dt_max)
    tl.store(out_ptr + offs, dt.to(out_ptr.dtype.element_ty), mask=m)


def run(dt: torch.Tensor, dt_bias: torch.Tensor, dt_min: float, dt_max: float) -> torch.Tensor:
    B, L, H = dt.shape
    out = torch.empty_like(dt)
    dt_softplus_kernel[(triton.cdiv(B * L, 64),)](dt, dt_bias, out, B * L, dt_min, dt_max, H,
                                                 BLOCK_H=triton.next_power_of_2(H), BLOCK_T=64)
    return out
