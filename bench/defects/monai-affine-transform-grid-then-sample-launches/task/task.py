"""Affine warp of a batch of 3-D volumes with trilinear interpolation (MONAI AffineTransform).

MONAI's AffineTransform layer (used by its registration networks and spatial transforms) maps
every output voxel through theta [B, 3, 4] (normalised coordinates, align_corners=False) and
samples the source trilinearly with zero padding: affine_grid followed by grid_sample.
"""
import torch
import torch.nn.functional as F

META = {
    "name": "affine_warp_3d",
    "level": 2,
    "category": "resample",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"B": 1, "C": 1, "D": 4, "H": 5, "W": 6},
        "ragged": {"B": 1, "C": 2, "D": 5, "H": 6, "W": 7},
        "large": {"B": 2, "C": 1, "D": 160, "H": 192, "W": 224},
    },
    "baseline_notes": "One launch over (B*D*H output rows, W blocks of 128): each program computes its row's "
                      "normalised coordinates, maps them through theta in registers, unnormalises them and "
                      "blends the 8 zero-padded corner gathers per channel; 4 warps, no autotune.",
    "deterministic": True,
}


def _random_theta(B: int, g: torch.Generator) -> torch.Tensor:
    """Near-identity affines as RandAffine draws them: rotations up to 0.2 rad, scale 0.9-1.1, shifts."""
    thetas = []
    for _ in range(B):
        a = (torch.rand(3, generator=g, dtype=torch.float64) - 0.5) * 0.4
        cx, cy, cz = torch.cos(a).tolist()
        sx, sy, sz = torch.sin(a).tolist()
        rx = torch.tensor([[1, 0, 0], [0, cx, -sx], [0, sx, cx]], dtype=torch.float64)
        ry = torch.tensor([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]], dtype=torch.float64)
        rz = torch.tensor([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]], dtype=torch.float64)
        scale = torch.diag(0.9 + 0.2 * torch.rand(3, generator=g, dtype=torch.float64))
        shift = (torch.rand(3, 1, generator=g, dtype=torch.float64) - 0.5) * 0.2
        thetas.append(torch.cat([rz @ ry @ rx @ scale, shift], dim=1))
    return torch.stack(thetas)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """src [B, C, D, H, W] (z-scored MR intensities), theta [B, 3, 4] float32."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    src = torch.randn(s["B"], s["C"], s["D"], s["H"], s["W"], generator=g)
    theta = _random_theta(s["B"], g).to(torch.float32)
    return src.to(dt).to(device), theta.to(device)


def reference(src: torch.Tensor, theta: torch.Tensor) -> torch.Tensor:
    grid = F.affine_grid(theta.double(), list(src.shape), align_corners=False)
    out = F.grid_sample(src.double(), grid, mode="bilinear", padding_mode="zeros", align_corners=False)
    return out.to(src.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["D"] * s["H"] * s["W"]
    return {"bytes": 2 * 4 * n * s["C"] + 48 * s["B"], "flops": n * (30 + 20 * s["C"])}
