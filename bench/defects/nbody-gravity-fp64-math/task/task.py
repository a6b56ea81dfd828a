"""All-pairs gravitational acceleration of an N-body system with Plummer softening (the body-body
interaction kernel of GPU Gems 3 ch. 31 / the CUDA samples `nbody`): for every body i,
a_i = sum_j m_j (r_j - r_i) / (|r_j - r_i|^2 + eps^2)^(3/2), G = 1. bodies is fp32 [N, 4] = (x, y, z, m);
output fp32 [N, 3]."""
import torch

META = {
    "name": "nbody_all_pairs_acceleration",
    "level": 2,
    "category": "n-body",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"N": 200},
        "ragged": {"N": 333},
        "large": {"N": 32768},
    },
    "baseline_notes": "One program per 64 bodies, loop over the bodies in tiles of 32: a [64, 32] interaction "
                      "tile in fp32 with one rsqrt per pair, accumulated elementwise in [64, 32] fp32 registers "
                      "and reduced once after the loop; 4 warps.",
    "deterministic": True,
}

SOFTENING2 = 1e-4


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """bodies [N, 4]: positions of a Plummer-like cluster (unit scale) and equal masses 1/N."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    n = s["N"]
    direction = torch.randn(n, 3, generator=g)
    direction = direction / direction.norm(dim=1, keepdim=True)
    u = torch.rand(n, generator=g).clamp(1e-3, 0.99)
    radius = (u ** (-2.0 / 3.0) - 1.0) ** -0.5
    bodies = torch.cat([direction * radius[:, None], torch.full((n, 1), 1.0 / n)], dim=1)
    dt = getattr(torch, dtype or META["dtypes"][0])
    return (bodies.to(dt).to(device),)


def reference(bodies: torch.Tensor) -> torch.Tensor:
    b = bodies.double()
    out = []
    for i0 in range(0, b.shape[0], 2048):  # row chunks keep the [rows, N, 3] fp64 temporaries small
        d = b[None, :, :3] - b[i0:i0 + 2048, None, :3]
        r2 = (d * d).sum(-1) + SOFTENING2
        w = b[None, :, 3] * r2 ** -1.5
        out.append((w[..., None] * d).sum(1))
    return torch.cat(out).to(bodies.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 16 * n + 12 * n, "flops": 20 * n * n}
