"""Mamba-2 dt preprocessing, written like the module's `dt.float()` ... `.to(dtype)`: cast kernels around an fp32 softplus kernel."""
import torch
import triton
import triton.language as tl


@triton.jit
def _cast_kernel(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=m).to(dst_ptr.dtype.element_ty), mask=m)


@triton.jit
def _softplus(x):
    return tl.where(x > 20.0, x, tl.log(1.0 + tl.exp(x)))


@triton.jit
def dt_softplus_kernel(dt_ptr, bias_ptr, out_ptr, T, dt_min, dt_max, H, BLOCK_H: tl.constexpr, BLOCK_T: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_T + tl.arange(0, BLOCK_T)
    heads = tl.arange(0, BLOCK_H)
    offs = rows[:, None].to(tl.int64) * H + heads[None, :]
    m = (rows[:, None] < T) & (heads[None, :] < H)
    dt = tl.load(dt_ptr + offs, mask=m, other=0.0) + tl.load(bias_ptr + heads, mask=heads < H, other=0.0)[None, :]
    dt = tl.minimum(tl.maximum(_softplus(dt), dt_min), dt_max)
    tl.store(out_ptr + offs, dt, mask=m)


def _cast(x: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    out = torch.empty(x.shape, dtype=dtype, device=x.device)
    n = x.numel()
    _cast_kernel[(triton.cdiv(n, 4096),)](x, out, n, BLOCK=4096)
    return out


def run(dt: torch.Tensor, dt_bias: torch.Tensor, dt_min: float, dt_max: float) -> torch.Tensor:
    B, L, H = dt.shape
    dt32 = _cast(dt, torch.float32)
    out32 = torch.empty_like(dt32)
    dt_softplus_kernel[(triton.cdiv(B * L, 64),)](dt32, dt_bias, out32, B * L, dt_min, dt_max, H,
                                                 BLOCK_H=triton.next_power_of_2(H), BLOCK_T=64)
    return _cast(out32, dt.dtype)
