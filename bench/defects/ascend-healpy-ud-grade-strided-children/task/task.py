"""Degrade NESTED HEALPix maps to a lower resolution (healpy.ud_grade, order_in="NESTED", pess=False).

In NESTED ordering the 4**k children of parent pixel i at nside_out = nside_in / 2**k are the consecutive
pixels i * 4**k ... (i + 1) * 4**k - 1. healpy.ud_grade reshapes each map to [npix_out, 4**k] and averages
the children that are not UNSEEN (-1.6375e30, healpy's masked value); a parent with no valid child is
UNSEEN. Maps are a stack [n_maps, 12 * nside_in**2] (I, Q, U), output [n_maps, 12 * nside_out**2] fp32.
"""
import torch

META = {
    "name": "healpix_ud_grade_nest",
    "level": 1,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"maps": 2, "nside_in": 16, "nside_out": 2},
        "ragged": {"maps": 3, "nside_in": 16, "nside_out": 4},
        "large": {"maps": 3, "nside_in": 2048, "nside_out": 256},
    },
    "baseline_notes": "40 programs (vector cores) loop over blocks of 64 parent pixels; each block's children are "
                      "one contiguous [64, 4**k] tile (16 KiB at 4**k = 64), masked against UNSEEN and reduced "
                      "along the contiguous axis to the sum and the valid count; one store per block. No autotune.",
    "deterministic": True,
}
UNSEEN = -1.6375e30


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """maps [n_maps, 12 nside_in^2] with a masked (UNSEEN) galactic band and point sources, nside_out (int)."""
    s = META["sizes"][size]
    n_maps, nside_in, nside_out = s["maps"], s["nside_in"], s["nside_out"]
    npix = 12 * nside_in * nside_in
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    scale = torch.tensor([100.0, 1.0, 1.0])[:n_maps, None]          # uK: temperature, then Q and U
    maps = torch.randn(n_maps, npix, generator=g) * scale
    # a mask that is coherent on parent scales (whole low-resolution cells out) plus scattered holes
    ratio = (nside_in // nside_out) ** 2
    cell = torch.rand(npix // ratio, generator=g) < 0.2
    holes = torch.rand(npix, generator=g) < 0.1
    bad = cell.repeat_interleave(ratio) | holes
    maps[:, bad] = UNSEEN
    return maps.to(dt).to(device), nside_out


def reference(maps: torch.Tensor, nside_out: int) -> torch.Tensor:
    n_maps, npix_in = maps.shape
    npix_out = 12 * nside_out * nside_out
    good = (maps != UNSEEN).reshape(n_maps, npix_out, npix_in // npix_out)   # compared in the map's dtype
    mr = maps.double().reshape(n_maps, npix_out, npix_in // npix_out)
    total = torch.where(good, mr, torch.zeros_like(mr)).sum(dim=2)
    nhit = good.sum(dim=2)
    out = torch.where(nhit > 0, total / nhit.clamp(min=1), torch.full_like(total, UNSEEN))
    return out.to(maps.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n_in, n_out = 12 * s["nside_in"] ** 2, 12 * s["nside_out"] ** 2
    return {"bytes": 4 * s["maps"] * (n_in + n_out), "flops": 3 * s["maps"] * n_in}
