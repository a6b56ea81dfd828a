"""Pair-representation LayerNorm over c_z for every token pair (Boltz pairformer)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _pair_layernorm(z, w, b, y, C, stride_row, eps, BLOCK_C: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_C)
    mask = cols < C
    x = tl.load(z + row * stride_row + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / C
    diff = tl.where(mask, x - mean, 0.0)
    var = tl.sum(diff * diff, axis=0) / C
    rstd = 1.0 / tl.sqrt(var + eps)
    gamma = tl.load(w + cols, mask=mask, other=0.0)
    beta = tl.load(b + cols, mask=mask, other=0.0)
    out = diff * rstd * gamma + beta
    tl.store(y + row * stride_row + cols, out.to(y.dtype.element_ty), mask=mask)


def run(z: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    C = z.shape[-1]
    rows = z.numel() // C
    y = torch.empty_like(z)
    BLOCK_C = triton.next_power_of_2(C)
    num_warps = min(max(BLOCK_C // 256, 1), 8)
    _pair_layernorm[(rows,)](z, w, b, y, C, C, 1e-5, BLOCK_C=BLOCK_C, num_warps=num_warps)
    return y
