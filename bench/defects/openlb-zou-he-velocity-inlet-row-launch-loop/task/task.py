"""D3Q19 Zou-He velocity inlet on the x = 0 face (Hecht & Harting 2010 on-site closure, OpenLB / Palabos ZouHe).

Populations are fp32 SoA f[q, z, y, x] (x fastest), D3Q19 in the OpenLB / Palabos order. For every cell of the
inlet face the five populations entering the domain (c_x = +1: q = 10, 13, 14, 15, 16) are reconstructed from the
14 known ones and the prescribed velocity u_in[:, z, y]:
  rho = (sum_{c_x=0} f + 2 sum_{c_x=-1} f) / (1 - ux)
  f10 = f1 + rho ux / 3
  f13 = f4 + rho (ux + uy) / 6 - Ny,   f14 = f5 + rho (ux - uy) / 6 + Ny
  f15 = f6 + rho (ux + uz) / 6 - Nz,   f16 = f7 + rho (ux - uz) / 6 + Nz
with the transverse corrections Ny = (f11 + f17 + f18 - f2 - f8 - f9) / 2 - rho uy / 3 and
Nz = (f12 + f17 + f9 - f3 - f18 - f8) / 2 - rho uz / 3. Output: the five populations [5, nz, ny].
"""
import torch

META = {
    "name": "d3q19_zou_he_velocity_inlet",
    "level": 2,
    "category": "cfd",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"nz": 6, "ny": 8, "nx": 4},
        "ragged": {"nz": 7, "ny": 13, "nx": 5},
        "large": {"nz": 256, "ny": 256, "nx": 512},
    },
    "baseline_notes": "One launch over the whole inlet face: one program per 128 face cells (face index z*ny + y, "
                      "lattice offset face * nx), 14 strided population loads, 3 velocity loads, 5 stores; "
                      "4 warps, no autotune.",
    "deterministic": True,
}

W = [1 / 3] + [1 / 18] * 3 + [1 / 36] * 6 + [1 / 18] * 3 + [1 / 36] * 6


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """f [19, nz, ny, nx] near the rest equilibrium; u_in [3, nz, ny]: a duct Poiseuille profile (peak 0.05) in x
    with small transverse components."""
    s = META["sizes"][size]
    nz, ny, nx = s["nz"], s["ny"], s["nx"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    w = torch.tensor(W, dtype=torch.float32).view(19, 1, 1, 1)
    f = torch.rand(19, nz, ny, nx, generator=g)
    f.mul_(0.1).add_(0.95).mul_(w)
    zz = (torch.arange(nz, dtype=torch.float32) + 0.5) / nz
    yy = (torch.arange(ny, dtype=torch.float32) + 0.5) / ny
    profile = 16.0 * (zz * (1 - zz))[:, None] * (yy * (1 - yy))[None, :]
    u_in = 0.005 * torch.randn(3, nz, ny, generator=g)
    u_in[0] += 0.05 * profile
    return f.to(dt).to(device), u_in.to(dt).to(device)


def reference(f: torch.Tensor, u_in: torch.Tensor) -> torch.Tensor:
    p = f[:, :, :, 0].double()
    ux, uy, uz = u_in.double()
    rho = (p[[0, 2, 3, 8, 9, 11, 12, 17, 18]].sum(0) + 2.0 * p[[1, 4, 5, 6, 7]].sum(0)) / (1.0 - ux)
    ny_corr = 0.5 * (p[11] + p[17] + p[18] - p[2] - p[8] - p[9]) - rho * uy / 3.0
    nz_corr = 0.5 * (p[12] + p[17] + p[9] - p[3] - p[18] - p[8]) - rho * uz / 3.0
    out = torch.stack([
        p[1] + rho * ux / 3.0,
        p[4] + rho * (ux + uy) / 6.0 - ny_corr,
        p[5] + rho * (ux - uy) / 6.0 + ny_corr,
        p[6] + rho * (ux + uz) / 6.0 - nz_corr,
        p[7] + rho * (ux - uz) / 6.0 + nz_corr,
    ])
    return out.to(f.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    face = s["nz"] * s["ny"]
    return {"bytes": 4 * face * (14 + 3 + 5), "flops": 40 * face}
