"""OSQP unscaled primal residual norms: ||E^-1 (Ax - z)||_inf, ||E^-1 Ax||_inf, ||E^-1 z||_inf."""
import torch
import triton
import triton.language as tl


@triton.jit
def _prim_residual_norms(ax, z, einv, out, m, BLOCK: tl.constexpr):
    res = tl.zeros([BLOCK], dtype=tl.float32)
    ax_abs = tl.zeros([BLOCK], dtype=tl.float32)
    z_abs = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, m, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        ok = offs < m
        a = tl.load(ax + offs, mask=ok, other=0.0)
        zz = tl.load(z + offs, mask=ok, other=0.0)
        e = tl.load(einv + offs, mask=ok, other=0.0)
        res = tl.maximum(res, tl.abs(e * (a - zz)))
        ax_abs = tl.maximum(ax_abs, tl.abs(e * a))
        z_abs = tl.maximum(z_abs, tl.abs(e * zz))
    tl.store(out + 0, tl.max(res, axis=0))
    tl.store(out + 1, tl.max(ax_abs, axis=0))
    tl.store(out + 2, tl.max(z_abs, axis=0))


def run(ax: torch.Tensor, z: torch.Tensor, einv: torch.Tensor) -> torch.Tensor:
    m = ax.numel()
    out = torch.empty(3, device=ax.device, dtype=torch.float32)
    BLOCK = 4096
    _prim_residual_norms[(1,)](ax, z, einv, out, m, BLOCK=BLOCK, num_warps=8)
    return out
