"""Wan DiT gated residual + adaLN modulation, one program per token row."""
import torch
import triton
import triton.language as tl


@triton.jit
def _modulated_layernorm(xs, shift, scale, mask, D, eps):
    mean = tl.sum(xs, axis=0) / D
    diff = tl.where(mask, xs - mean, 0.0)
    var = tl.sum(diff * diff, axis=0) / D
    return diff * tl.rsqrt(var + eps) * (1.0 + scale) + shift


@triton.jit
def gate_residual_adaln_kernel(x_ptr, y_ptr, gate_ptr, shift_ptr, scale_ptr, xo_ptr, h_ptr,
                               L, D, eps, BLOCK_D: tl.constexpr):
    row = tl.program_id(0)
    sample = row // L
    cols = tl.arange(0, BLOCK_D)
    mask = cols < D
    base = row.to(tl.int64) * D
    x = tl.load(x_ptr + base + cols, mask=mask, other=0.0).to(tl.float32)
    y = tl.load(y_ptr + base + cols, mask=mask, other=0.0).to(tl.float32)
    gate = tl.load(gate_ptr + sample * D + cols, mask=mask, other=0.0)
    shift = tl.load(shift_ptr + sample * D + cols, mask=mask, other=0.0)
    scale = tl.load(scale_ptr + sample * D + cols, mask=mask, other=0.0)
    x_new = (x + y * gate).to(xo_ptr.dtype.element_ty)
    tl.store(xo_ptr + base + cols, x_new, mask=mask)
    h = _modulated_layernorm(x_new.to(tl.float32), shift, scale, mask, D, eps)
    tl.store(h_ptr + base + cols, h.to(h_ptr.dtype.element_ty), mask=mask)


def run(x: torch.Tensor, y: torch.Tensor, gate: torch.Tensor, shift: torch.Tensor, scale: torch.Tensor):
    B, L, D = x.shape
    x_out = torch.empty_like(x)
    h = torch.empty_like(x)
    BLOCK_D = triton.next_power_of_2(D)
    num_warps = 8 if BLOCK_D >= 4096 else 4
    gate_residual_adaln_kernel[(B * L,)](x, y, gate, shift, scale, x_out, h, L, D, 1e-6,
                                         BLOCK_D=BLOCK_D, num_warps=num_warps)
    return x_out, h
