"""RTE broadband fluxes: sum of the spectral (g-point) fluxes per column and half-level, and the net flux."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _sum_broadband_kernel(flux_up, flux_dn, bb_up, bb_dn, bb_net, rows, ngpt,
                          BR: tl.constexpr, BG: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    g = tl.arange(0, BG)
    gmask = g < ngpt
    for blk in range(pid, tl.cdiv(rows, BR), nprog):
        row = blk * BR + tl.arange(0, BR)
        rmask = row < rows
        mask = rmask[:, None] & gmask[None, :]
        up = tl.load(flux_up + row[:, None] * ngpt + g[None, :], mask=mask, other=0.0)
        dn = tl.load(flux_dn + row[:, None] * ngpt + g[None, :], mask=mask, other=0.0)
        up_sum = tl.sum(up, axis=1)
        dn_sum = tl.sum(dn, axis=1)
        tl.store(bb_up + row, up_sum, mask=rmask)
        tl.store(bb_dn + row, dn_sum, mask=rmask)
        tl.store(bb_net + row, dn_sum - up_sum, mask=rmask)


def run(flux_up: torch.Tensor, flux_dn: torch.Tensor) -> tuple:
    ncol, nlev, ngpt = flux_up.shape
    rows = ncol * nlev
    bb_up = torch.empty((ncol, nlev), device=flux_up.device, dtype=flux_up.dtype)
    bb_dn = torch.empty_like(bb_up)
    bb_net = torch.empty_like(bb_up)
    BG = triton.next_power_of_2(ngpt)
    BR = max(1, 4096 // BG)
    grid = (min(_VECTOR_CORES, triton.cdiv(rows, BR)),)
    _sum_broadband_kernel[grid](flux_up, flux_dn, bb_up, bb_dn, bb_net, rows, ngpt, BR=BR, BG=BG)
    return bb_up, bb_dn, bb_net
