"""Cumulative dose-volume histogram of one structure (matRad_calcDVH) on an RTDOSE pixel grid.

matRad_calcDVH evaluates n = 1000 dose points p_k = linspace(0, 1.05 * maxDose, n) and, per structure,
the percentage of its voxels whose dose exceeds each point:

    dvh[k] = 100 * #{v in structure : dose_v > p_k} / N

Here the dose comes from a DICOM RTDOSE object (as matRad's DICOM import reads it): unsigned pixel
values with a DoseGridScaling of 2.5e-5 Gy per unit, kept as int32. The structure's voxel list has
already been gathered (dose(cst{i,4}{1})), and the points are given in pixel units,
thr_px[k] = floor(p_k / DoseGridScaling), so the count is exact. Pixel values stay below 2^24.
Returns dvh [n] fp32 (percent volume).
"""
import torch

META = {
    "name": "cumulative_dvh",
    "level": 1,
    "category": "histogram",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 3000, "P": 40},
        "ragged": {"N": 4999, "P": 37},
        "large": {"N": 1_200_000, "P": 1000},
    },
    "baseline_notes": "min(40, blocks) programs loop over blocks of 8 DVH points; each streams the structure's "
                      "dose in tiles of 1024 voxels, converts them to fp32 once per tile and counts "
                      "dose > point with an [8, 1024] fp32 compare summed along the voxel axis; no autotune.",
    "deterministic": True,
}

DOSE_GRID_SCALING = 2.5e-5   # Gy per pixel unit


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """dose_px [N] int32 (structure voxels' RTDOSE pixel values), thr_px [P] int32 (DVH points, pixel units)."""
    s = META["sizes"][size]
    n, n_pts = s["N"], s["P"]
    g = torch.Generator().manual_seed(seed)
    # body contour: most voxels in the low-dose bath, a high-dose core around the 70 Gy prescription
    gy = 72.0 * torch.rand(n, generator=g, dtype=torch.float64).pow(3)
    core = torch.rand(n, generator=g) < 0.15
    gy = torch.where(core, 70.0 + 1.5 * torch.randn(n, generator=g, dtype=torch.float64), gy).clamp(min=0.0)
    dose_px = torch.round(gy / DOSE_GRID_SCALING).to(torch.int32)
    max_gy = dose_px.max().double() * DOSE_GRID_SCALING
    points = torch.linspace(0.0, 1.05 * float(max_gy), n_pts, dtype=torch.float64)
    thr_px = torch.floor(points / DOSE_GRID_SCALING).to(torch.int32)
    return dose_px.to(device), thr_px.to(device)


def reference(dose_px: torch.Tensor, thr_px: torch.Tensor) -> torch.Tensor:
    n = dose_px.numel()
    ordered = torch.sort(dose_px.long()).values
    at_or_below = torch.searchsorted(ordered, thr_px.long(), right=True)
    return ((n - at_or_below).double() * (100.0 / n)).to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["N"] + 8 * s["P"], "flops": 2 * s["N"] * s["P"]}
