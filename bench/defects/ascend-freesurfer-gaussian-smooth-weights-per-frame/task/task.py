"""Gaussian smoothing of a multi-frame surface overlay on the sphere (FreeSurfer MRISgaussianSmooth).

mris_preproc / mri_surf2surf --fwhm smooth a stacked overlay (one frame per subject, stored frame-major
as FreeSurfer's MRI of width nvertices and nframes frames) on the common sphere. Every vertex v takes a
normalised Gaussian-weighted average over its extended neighbourhood N(v) (v itself and the vertices
within TruncFactor * GStd, MRISextendedNeighbors):
    w[v, n] = exp(-d(v, n)^2 / (2 GStd^2)),   out[f, v] = sum_n w[v, n] src[f, n] / sum_n w[v, n]
with GStd = fwhm / sqrt(8 ln 2) and d the chord distance on the sphere (coordinates exported as the
x, y, z arrays of MRISexportXYZ). The port keeps N(v) as a padded [V, K] int32 table (-1 = empty slot,
slot 0 = v itself). Returns out fp32 [F, V].
"""
import math

import torch

META = {
    "name": "surface_gaussian_smooth_frames",
    "level": 2,
    "category": "gather-stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"V": 96, "F": 3, "K": 32},
        "ragged": {"V": 211, "F": 5, "K": 32},
        "large": {"V": 40962, "F": 40, "K": 32},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 64 vertices; per block the "
                      "[64, 32] neighbour table is loaded once, the neighbour coordinates are gathered and the "
                      "Gaussian weights and their row sums computed once, then the frame loop only gathers "
                      "src[f, nbr] and does the weighted row sums. No autotune.",
    "deterministic": True,
}
FSAVERAGE6_V = 40962
SPHERE_RADIUS = 100.0   # mm, FreeSurfer's registration sphere
FWHM = 3.0              # mm
TRUNC_SIGMAS = 3.0


def _fibonacci_sphere(n: int, radius: float) -> torch.Tensor:
    i = torch.arange(n, dtype=torch.float64) + 0.5
    z = 1.0 - 2.0 * i / n
    r = torch.sqrt((1.0 - z * z).clamp(min=0.0))
    phi = i * math.pi * (3.0 - math.sqrt(5.0))
    return radius * torch.stack([r * torch.cos(phi), r * torch.sin(phi), z], dim=1)


def _search(xyz: torch.Tensor, rows: torch.Tensor, offs: torch.Tensor, rmax: float, k: int) -> torch.Tensor:
    n = xyz.shape[0]
    table = torch.full((rows.numel(), k), -1, dtype=torch.int32)
    for start in range(0, rows.numel(), 4096):
        r = rows[start:start + 4096]
        cand = r[:, None] + offs[None, :]
        ok = (cand >= 0) & (cand < n)
        cand_c = cand.clamp(0, n - 1)
        d2 = (xyz[cand_c] - xyz[r][:, None, :]).pow(2).sum(-1)
        d2 = torch.where(ok & (d2 <= rmax * rmax), d2, torch.full_like(d2, float("inf")))
        best, idx = torch.topk(d2, min(k, offs.numel()), dim=1, largest=False)
        nb = torch.gather(cand_c, 1, idx)
        table[start:start + r.numel(), :idx.shape[1]] = torch.where(
            torch.isfinite(best), nb, torch.full_like(nb, -1)).to(torch.int32)
    return table


def _neighbourhoods(xyz: torch.Tensor, radius: float, rmax: float, k: int) -> torch.Tensor:
    """Up to k nearest vertices within rmax (self first), -1 padded. Points are sorted by z, so a
    vertex's neighbours lie within an index window of +-rmax * n / (2 radius); the index offsets that
    actually occur are few (a Fibonacci lattice), so they are found on a sample of rows first."""
    n = xyz.shape[0]
    w = min(n - 1, int(rmax * n / (2.0 * radius)) + 2)
    window = torch.arange(-w, w + 1)
    sample = torch.unique(torch.cat([torch.arange(0, n, max(1, n // 1024)), torch.arange(min(n, 256)),
                                     torch.arange(max(0, n - 256), n)]))
    found = _search(xyz, sample, window, rmax, k)
    offs = torch.unique((found.long() - sample[:, None])[found >= 0])
    return _search(xyz, torch.arange(n), offs, rmax, k)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """src [F, V], x, y, z [V] (sphere coordinates), nbr int32 [V, K], gstd (float)."""
    s = META["sizes"][size]
    n, f, k = s["V"], s["F"], s["K"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # the sphere is scaled so that the vertex spacing (and so the neighbourhood size) matches fsaverage6
    radius = SPHERE_RADIUS * math.sqrt(n / FSAVERAGE6_V)
    gstd = FWHM / math.sqrt(8.0 * math.log(2.0))
    xyz = _fibonacci_sphere(n, radius)
    nbr = _neighbourhoods(xyz, radius, TRUNC_SIGMAS * gstd, k)
    # per-subject thickness-like maps: a smooth pattern plus vertex noise
    u = xyz / radius
    base = 2.5 + 0.4 * torch.sin(3.0 * u[:, 0]) * torch.cos(2.0 * u[:, 1])
    src = base[None, :] + 0.5 * torch.randn(f, n, generator=g, dtype=torch.float64)
    cast = lambda t: t.to(dt).contiguous().to(device)  # noqa: E731
    return (cast(src), cast(xyz[:, 0]), cast(xyz[:, 1]), cast(xyz[:, 2]), nbr.to(device), gstd)


def reference(src, x, y, z, nbr, gstd):
    xyz = torch.stack([x, y, z], dim=1).double()
    valid = nbr >= 0
    nb = nbr.long().clamp(min=0)
    d2 = (xyz[nb] - xyz[:, None, :]).pow(2).sum(-1)
    w = torch.where(valid, torch.exp(-d2 / (2.0 * gstd * gstd)), torch.zeros_like(d2))
    vals = src.double()[:, nb]                                  # [F, V, K]
    out = (vals * w[None]).sum(-1) / w.sum(-1)[None]
    return out.to(src.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 8 * s["F"] * s["V"] + 4 * s["V"] * (s["K"] + 3), "flops": 3 * s["F"] * s["V"] * s["K"]}
