"""DEM normal contact forces (LIGGGHTS pair gran/hertz style) over a padded full neighbour list.

Spheres i with position x_i, velocity v_i and radius r_i; nbr[i, :] lists candidate neighbours
(-1 = empty slot, both directions stored). For every listed pair with overlap
delta = r_i + r_j - |x_i - x_j| > 0:
    n = (x_i - x_j) / |x_i - x_j|,  R* = r_i r_j / (r_i + r_j),  s = sqrt(R* delta)
    F = KN * s * delta - GN * s * dot(v_i - v_j, n)
and force[i] = sum_j F * n (Hertz spring plus a viscoelastic dashpot, no tangential history).
"""
import torch

KN = 1000.0
GN = 5.0

META = {
    "name": "dem_hertz_contact_force",
    "level": 2,
    "category": "simulation",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"nx": 4, "ny": 4, "nz": 5, "K": 32},
        "ragged": {"nx": 5, "ny": 6, "nz": 7, "K": 32},
        "large": {"nx": 100, "ny": 100, "nz": 100, "K": 32},
    },
    "baseline_notes": "[BLOCK_P=32 particles, 32 neighbour slots] tile per program: gathers neighbour position, "
                      "velocity and radius, Hertz force per pair, sum along the slot axis; 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pos [N, 3], vel [N, 3], radius [N] (float), nbr [N, K] int32 (-1 padded, shuffled)."""
    s = META["sizes"][size]
    nx, ny, nz, K = s["nx"], s["ny"], s["nz"], s["K"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    ix, iy, iz = torch.meshgrid(torch.arange(nx), torch.arange(ny), torch.arange(nz), indexing="ij")
    ix, iy, iz = ix.reshape(-1), iy.reshape(-1), iz.reshape(-1)
    n = ix.numel()
    spacing = 0.97
    pos = torch.stack([ix, iy, iz], 1).float() * spacing + (torch.rand(n, 3, generator=g) - 0.5) * 0.04
    vel = torch.randn(n, 3, generator=g) * 0.1
    radius = 0.5 * (1.0 + 0.04 * (torch.rand(n, generator=g) - 0.5))
    cols = []
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            for dz in (-1, 0, 1):
                if dx == dy == dz == 0:
                    continue
                jx, jy, jz = ix + dx, iy + dy, iz + dz
                ok = (jx >= 0) & (jx < nx) & (jy >= 0) & (jy < ny) & (jz >= 0) & (jz < nz)
                cols.append(torch.where(ok, (jx * ny + jy) * nz + jz, torch.full_like(jx, -1)))
    nbr = torch.cat([torch.stack(cols, 1), torch.full((n, K - len(cols)), -1, dtype=torch.long)], 1)
    perm = torch.argsort(torch.rand(n, K, generator=g), dim=1)
    nbr = torch.gather(nbr, 1, perm).to(torch.int32)
    return pos.to(dt).to(device), vel.to(dt).to(device), radius.to(dt).to(device), nbr.to(device)


def reference(pos: torch.Tensor, vel: torch.Tensor, radius: torch.Tensor, nbr: torch.Tensor) -> torch.Tensor:
    live = nbr >= 0
    j = nbr.long().clamp(min=0)
    p, v, r = pos.double(), vel.double(), radius.double()
    d = p[:, None, :] - p[j]
    dist = d.norm(dim=-1)
    delta = r[:, None] + r[j] - dist
    contact = live & (delta > 0)
    safe = torch.where(contact, dist, torch.ones_like(dist))
    nrm = d / safe[..., None]
    rstar = r[:, None] * r[j] / (r[:, None] + r[j])
    sq = torch.sqrt(torch.where(contact, rstar * delta, torch.zeros_like(delta)))
    vn = ((v[:, None, :] - v[j]) * nrm).sum(-1)
    f = torch.where(contact, KN * sq * delta - GN * sq * vn, torch.zeros_like(delta))
    return (f[..., None] * nrm).sum(1).to(pos.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["nx"] * s["ny"] * s["nz"]
    return {"bytes": n * (4 * s["K"] + 28 + 12), "flops": 40 * n * s["K"]}
