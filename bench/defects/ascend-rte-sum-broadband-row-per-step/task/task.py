"""Broadband flux reduction of RTE+RRTMGP (mo_fluxes_broadband_kernels: sum_broadband + net_broadband).

The solver leaves spectrally resolved upwelling and downwelling fluxes per column, half-level and
g-point; the broadband fluxes the host model keeps are their sums over the g-points:
    up[c, l] = sum_j flux_up[c, l, j],   dn[c, l] = sum_j flux_dn[c, l, j],   net[c, l] = dn - up
Spectral fluxes are [ncol, nlev, ngpt] row-major (g-point fastest, the layout of a column-batched
port); the outputs are [ncol, nlev]. Returns (up, dn, net).
"""
import torch

META = {
    "name": "sum_net_broadband",
    "level": 1,
    "category": "radiative_transfer",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-5}},
    "sizes": {
        "small": {"ncol": 4, "nlev": 7, "ngpt": 32},
        "ragged": {"ncol": 5, "nlev": 9, "ngpt": 20},
        "large": {"ncol": 1800, "nlev": 61, "ngpt": 256},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 16 (column, level) rows x the "
                      "whole g-point axis (next_power_of_2(ngpt) lanes): two 16 KB tiles per block, row sums "
                      "along the contiguous axis, one vector store per output; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """flux_up, flux_dn [ncol, nlev, ngpt] in W m-2 per g-point (longwave-like magnitudes)."""
    s = META["sizes"][size]
    ncol, nlev, ngpt = s["ncol"], s["nlev"], s["ngpt"]
    gen = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    weight = torch.rand(ngpt, generator=gen) + 0.05
    weight = weight / weight.sum()
    height = torch.linspace(1.0, 0.0, nlev)[None, :, None]
    olr = 240.0 + 40.0 * torch.rand(ncol, 1, 1, generator=gen)
    up = olr * (1.0 + 0.6 * (1.0 - height)) * weight * (0.7 + 0.6 * torch.rand(ncol, nlev, ngpt, generator=gen))
    dn = 330.0 * (1.0 - height) ** 1.5 * weight * (0.5 + torch.rand(ncol, nlev, ngpt, generator=gen))
    return up.to(dt).to(device), dn.to(dt).to(device)


def reference(flux_up: torch.Tensor, flux_dn: torch.Tensor) -> tuple:
    up = flux_up.double().sum(-1)
    dn = flux_dn.double().sum(-1)
    return up.to(flux_up.dtype), dn.to(flux_up.dtype), (dn - up).to(flux_up.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    rows = s["ncol"] * s["nlev"]
    return {"bytes": 8 * rows * s["ngpt"] + 12 * rows, "flops": 2 * rows * s["ngpt"] + rows}
