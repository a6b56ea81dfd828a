"""Attenuated SPECT forward projection along the depth axis (PyTomography SPECTAttenuationTransform / STIR SPECTUB).

The object and the attenuation map have already been rotated to each detector angle a, so that the
depth axis x runs towards the detector (detector on the high-x side), y is the transaxial detector
axis and z the axial one. With voxel size dx (cm) and linear attenuation mu (1/cm), the photons
emitted in voxel (x, y, z) reach detector bin (y, z) with probability
    P[a, x, y, z] = exp(-dx * (mu[a, x, y, z] / 2 + sum_{x' > x} mu[a, x', y, z]))
(half of the emitting voxel plus every voxel in front of it), and the projection is
    proj[a, y, z] = sum_x obj[a, x, y, z] * P[a, x, y, z].
Inputs obj, mu [A, N, N, N] fp32 (A angles of an OSEM subset), output proj [A, N, N] fp32.
"""
import math

import torch

META = {
    "name": "spect_attenuated_projection",
    "level": 2,
    "category": "scan",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"A": 2, "N": 8, "n_angles": 120},
        "ragged": {"A": 3, "N": 11, "n_angles": 120},
        "large": {"A": 15, "N": 128, "n_angles": 120},
    },
    "baseline_notes": "40 programs (the 910B's vector cores) loop over (angle, 1024-column) blocks of the "
                      "detector plane; each walks the depth axis from the detector side, carrying the "
                      "attenuation path sum of the voxels already passed in a register tile, so every "
                      "voxel of obj and mu is loaded once; one store per block; no autotune.",
    "deterministic": True,
}
VOXEL_CM = 0.4795  # 128 x 128 matrix, 4.795 mm voxels (a typical Tc-99m acquisition)


def _phantom(xs, ys, zs):
    """Activity (arbitrary units) and mu at 140 keV (1/cm) of a thorax-like phantom, coords in [-1, 1]."""
    body = (xs / 0.85) ** 2 + (ys / 0.6) ** 2 < 1.0
    lung_l = ((xs + 0.35) / 0.25) ** 2 + ((ys - 0.05) / 0.35) ** 2 < 1.0
    lung_r = ((xs - 0.35) / 0.25) ** 2 + ((ys - 0.05) / 0.35) ** 2 < 1.0
    spine = (xs / 0.09) ** 2 + ((ys + 0.45) / 0.09) ** 2 < 1.0
    heart = ((xs + 0.1) ** 2 + (ys - 0.1) ** 2 + (zs * 0.8) ** 2) < 0.18 ** 2
    lesion = ((xs - 0.4) ** 2 + (ys + 0.2) ** 2 + (zs - 0.3) ** 2) < 0.06 ** 2
    mu = torch.where(body, 0.153, 0.0)
    mu = torch.where(lung_l | lung_r, 0.04, mu)
    mu = torch.where(spine, 0.25, mu)
    act = torch.where(body, 1.0, 0.0)
    act = torch.where(lung_l | lung_r, 0.3, act)
    act = torch.where(heart, 6.0, act)
    act = torch.where(lesion, 10.0, act)
    return act, mu


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """obj [A, N, N, N] (current OSEM estimate, rotated), mu [A, N, N, N] (rotated), dx (cm)."""
    s = META["sizes"][size]
    a_n, n = s["A"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    c = torch.linspace(-1.0, 1.0, n)
    x, y, z = torch.meshgrid(c, c, c, indexing="ij")
    subset = seed % 8
    obj = torch.empty(a_n, n, n, n)
    mu = torch.empty(a_n, n, n, n)
    for a in range(a_n):
        theta = 2.0 * math.pi * (subset + 8 * a) / s["n_angles"]
        xr = math.cos(theta) * x - math.sin(theta) * y
        yr = math.sin(theta) * x + math.cos(theta) * y
        act, att = _phantom(xr, yr, z)
        obj[a] = act * (0.9 + 0.2 * torch.rand(act.shape, generator=g))
        mu[a] = att
    return obj.to(device=device, dtype=dt), mu.to(device=device, dtype=dt), VOXEL_CM


def reference(obj: torch.Tensor, mu: torch.Tensor, dx: float) -> torch.Tensor:
    m = mu.double()
    ahead = torch.flip(torch.cumsum(torch.flip(m, dims=(1,)), dim=1), dims=(1,)) - m  # sum over x' > x
    prob = torch.exp(-dx * (0.5 * m + ahead))
    return (obj.double() * prob).sum(dim=1).to(obj.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    vox = s["A"] * s["N"] ** 3
    return {"bytes": 8 * vox + 4 * s["A"] * s["N"] ** 2, "flops": 6 * vox}
