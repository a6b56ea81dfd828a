"""MACE edge attributes: e3nn o3.SphericalHarmonics("1x0e + 1x1o + 1x2e + 1x3o", normalize=True,
normalization="component") of every edge vector (MACE's `spherical_harmonics(vectors)` in the
model's forward, lmax = 3).

vectors [E, 3] = positions[receiver] - positions[sender] + shifts. Each is normalised (torch's
F.normalize: v / max(|v|, 1e-12)) and the 16 real spherical-harmonic components, l = 0..3 with e3nn's
polynomial formulas (x, y, z in e3nn's order, component normalisation: |Y^l|^2 = 2l + 1), are written
edge-major: sh [E, 16], row e = (Y0 | Y1_0..2 | Y2_0..4 | Y3_0..6).
"""
import math

import torch

META = {
    "name": "mace_edge_spherical_harmonics_l3",
    "level": 1,
    "category": "equivariant_gnn",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"E": 200},
        "ragged": {"E": 333},
        "large": {"E": 4194304},
    },
    "baseline_notes": "One launch over blocks of 256 edges, 4 warps: x, y, z loaded per edge, normalised, the "
                      "16 components evaluated in registers, packed into a [256, 16] tile with tl.join / "
                      "tl.reshape and written with one contiguous 2-D store. No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Edge vectors [E, 3] of a dense periodic solid: random directions, lengths 0.8 to 6.0 A (r_max 6)."""
    e = META["sizes"][size]["E"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    d = torch.randn(e, 3, generator=g)
    d = d / d.norm(dim=1, keepdim=True)
    r = 0.8 + 5.2 * torch.rand(e, 1, generator=g).pow(0.5)
    return ((d * r).to(device=device, dtype=dt),)


def reference(vectors: torch.Tensor) -> torch.Tensor:
    v = torch.nn.functional.normalize(vectors.double(), dim=-1)
    x, y, z = v[:, 0], v[:, 1], v[:, 2]
    s3, s5, s7, s15 = math.sqrt(3), math.sqrt(5), math.sqrt(7), math.sqrt(15)
    sh_2_0 = s15 * x * z
    sh_2_1 = s15 * x * y
    y2 = y * y
    x2z2 = x * x + z * z
    sh_2_2 = s5 * (y2 - 0.5 * x2z2)
    sh_2_3 = s15 * y * z
    sh_2_4 = 0.5 * s15 * (z * z - x * x)
    comps = [
        torch.ones_like(x),
        s3 * x, s3 * y, s3 * z,
        sh_2_0, sh_2_1, sh_2_2, sh_2_3, sh_2_4,
        math.sqrt(42) / 6 * (sh_2_0 * z + sh_2_4 * x),
        s7 * sh_2_0 * y,
        math.sqrt(168) / 8 * (4.0 * y2 - x2z2) * x,
        0.5 * s7 * y * (2.0 * y2 - 3.0 * x2z2),
        math.sqrt(168) / 8 * z * (4.0 * y2 - x2z2),
        s7 * sh_2_4 * y,
        math.sqrt(42) / 6 * (sh_2_4 * z - sh_2_0 * x),
    ]
    return torch.stack(comps, dim=-1).to(vectors.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    e = META["sizes"][size]["E"]
    return {"bytes": e * (12 + 64), "flops": 60 * e}
