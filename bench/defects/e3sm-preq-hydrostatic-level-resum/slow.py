"""Hydrostatic geopotential (HOMME preq_hydrostatic): one program per (level, column block)."""
import torch
import triton
import triton.language as tl

RGAS = 287.04
BLOCK = 128


@triton.jit
def _preq_hydrostatic(phis, t_v, p, dp, phi, ncol, nlev, rgas, BLOCK: tl.constexpr):
    k = tl.program_id(0)                                # this program's level (0 = model top)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    ok = cols < ncol
    surf = tl.load(phis + cols, mask=ok, other=0.0)
    phii = tl.zeros([BLOCK], dtype=tl.float32)          # interface geopotential above phis
    for s in range(0, nlev - 1 - k):
        l = nlev - 1 - s                                # every layer below level k, surface first
        t_l = tl.load(t_v + l * ncol + cols, mask=ok, other=0.0)
        p_l = tl.load(p + l * ncol + cols, mask=ok, other=1.0)
        dp_l = tl.load(dp + l * ncol + cols, mask=ok, other=0.0)
        phii += rgas * t_l * (2.0 * (dp_l * 0.5 / p_l))
    t_k = tl.load(t_v + k * ncol + cols, mask=ok, other=0.0)
    p_k = tl.load(p + k * ncol + cols, mask=ok, other=1.0)
    dp_k = tl.load(dp + k * ncol + cols, mask=ok, other=0.0)
    hkk = dp_k * 0.5 / p_k
    tl.store(phi + k * ncol + cols, surf + phii + rgas * t_k * hkk, mask=ok)


def run(phis: torch.Tensor, t_v: torch.Tensor, p: torch.Tensor, dp: torch.Tensor) -> torch.Tensor:
    nlev, ncol = t_v.shape
    phi = torch.empty_like(t_v)
    grid = (nlev, triton.cdiv(ncol, BLOCK))
    _preq_hydrostatic[grid](phis, t_v, p, dp, phi, ncol, nlev, RGAS, BLOCK=BLOCK, num_warps=4)
    return phi
