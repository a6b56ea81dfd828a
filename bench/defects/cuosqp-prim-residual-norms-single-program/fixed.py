"""OSQP unscaled primal residual norms: ||E^-1 (Ax - z)||_inf, ||E^-1 Ax||_inf, ||E^-1 z||_inf."""
import torch
import triton
import triton.language as tl


@triton.jit
def _prim_residual_norms(ax, z, einv, out, m, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < m
    a = tl.load(ax + offs, mask=ok, other=0.0)
    zz = tl.load(z + offs, mask=ok, other=0.0)
    e = tl.load(einv + offs, mask=ok, other=0.0)
    tl.atomic_max(out + 0, tl.max(tl.abs(e * (a - zz)), axis=0))
    tl.atomic_max(out + 1, tl.max(tl.abs(e * a), axis=0))
    tl.atomic_max(out + 2, tl.max(tl.abs(e * zz), axis=0))


def run(ax: torch.Tensor, z: torch.Tensor, einv: torch.Tensor) -> torch.Tensor:
    m = ax.numel()
    out = torch.zeros(3, device=ax.device, dtype=torch.float32)
    BLOCK = 8192
    _prim_residual_norms[(triton.cdiv(m, BLOCK),)](ax, z, einv, out, m, BLOCK=BLOCK, num_warps=8)
    return out
