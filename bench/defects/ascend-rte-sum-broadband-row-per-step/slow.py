"""RTE broadband fluxes: sum of the spectral (g-point) fluxes per column and half-level, and the net flux."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _sum_broadband_kernel(flux_up, flux_dn, bb_up, bb_dn, bb_net, rows, ngpt, BG: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    g = tl.arange(0, BG)
    gmask = g < ngpt
    for row in range(pid, rows, nprog):
        up = tl.load(flux_up + row * ngpt + g, mask=gmask, other=0.0)
        dn = tl.load(flux_dn + row * ngpt + g, mask=gmask, other=0.0)
        up_sum = tl.sum(up, axis=0)
        dn_sum = tl.sum(dn, axis=0)
        tl.store(bb_up + row, up_sum)
        tl.store(bb_dn + row, dn_sum)
        tl.store(bb_net + row, dn_sum - up_sum)


def run(flux_up: torch.Tensor, flux_dn: torch.Tensor) -> tuple:
    ncol, nlev, ngpt = flux_up.shape
    rows = ncol * nlev
    bb_up = torch.empty((ncol, nlev), device=flux_up.device, dtype=flux_up.dtype)
    bb_dn = torch.empty_like(bb_up)
    bb_net = torch.empty_like(bb_up)
    BG = triton.next_power_of_2(ngpt)
    grid = (min(_VECTOR_CORES, rows),)
    _sum_broadband_kernel[grid](flux_up, flux_dn, bb_up, bb_dn, bb_net, rows, ngpt, BG=BG)
    return bb_up, bb_dn, bb_net
