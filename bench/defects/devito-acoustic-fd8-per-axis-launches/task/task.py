"""One time step of the 2-D constant-density acoustic wave equation, 8th order in space (Devito).

m u_tt = laplace(u) with the leapfrog update
    u_next = 2 u - u_prev + dt^2 / m * laplace(u),
the Laplacian by the 9-point 8th-order second-derivative stencil along x and along z (spacing h,
the field taken as zero outside the grid). Fields are [nx, nz] fp32 with z contiguous; m is the
squared slowness 1/v^2 of the velocity model.
"""
import torch

META = {
    "name": "acoustic_fd8_step",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"NX": 24, "NZ": 40},
        "ragged": {"NX": 37, "NZ": 83},
        "large": {"NX": 13601, "NZ": 2801},
    },
    "baseline_notes": "One fused kernel over [8, 128] tiles: loads u at the 17 stencil points (zero outside the "
                      "grid), u_prev and m, and stores u_next; 4 warps, no autotune.",
    "deterministic": True,
}
H = 1.25          # grid spacing (m), Marmousi2 at 1.25 m
DT = 1.2e-4       # time step (s), CFL ~0.45 at 4.7 km/s
FD8 = (-205.0 / 72.0, 8.0 / 5.0, -1.0 / 5.0, 8.0 / 315.0, -1.0 / 560.0)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """u_prev, u [NX, NZ] (an expanding Ricker ring from a shot near the surface plus noise),
    m [NX, NZ] = 1/v^2 of a layered 1.5-4.7 km/s model, and the scalars dt, h."""
    s = META["sizes"][size]
    NX, NZ = s["NX"], s["NZ"]
    g = torch.Generator().manual_seed(seed)
    ix = torch.arange(NX, dtype=torch.float32)[:, None]
    iz = torch.arange(NZ, dtype=torch.float32)[None, :]
    depth = iz / NZ
    vel = 1500.0 + 3000.0 * depth + 250.0 * torch.sin(6.2832 * ix / (NX / 3.0 + 1.0)) * depth
    vel = vel + 100.0 * torch.rand(NX, 1, generator=g)
    m = 1.0 / vel.clamp(1500.0, 4700.0) ** 2
    width = max(3.0, min(NX, NZ) / 12.0)
    r = torch.sqrt((ix - NX / 3.0) ** 2 + (iz - 4.0) ** 2)
    r0 = 0.35 * min(NX, NZ)

    def ring(radius):
        tau = (r - radius) / width
        return (1 - 2 * tau * tau) * torch.exp(-tau * tau)

    u = ring(r0) + 0.01 * torch.randn(NX, NZ, generator=g)
    u_prev = ring(r0 - 0.4) + 0.01 * torch.randn(NX, NZ, generator=g)
    dt_ = getattr(torch, dtype or META["dtypes"][0])
    return (u_prev.to(dt_).to(device), u.to(dt_).to(device), m.to(dt_).to(device), DT, H)


def reference(u_prev: torch.Tensor, u: torch.Tensor, m: torch.Tensor, dt: float, h: float) -> torch.Tensor:
    NX, NZ = u.shape
    p = torch.nn.functional.pad(u.double(), (4, 4, 4, 4))
    lap = 2.0 * FD8[0] * u.double()
    for k in range(1, 5):
        lap = lap + FD8[k] * (p[4 - k:4 - k + NX, 4:4 + NZ] + p[4 + k:4 + k + NX, 4:4 + NZ]
                              + p[4:4 + NX, 4 - k:4 - k + NZ] + p[4:4 + NX, 4 + k:4 + k + NZ])
    out = 2.0 * u.double() - u_prev.double() + (dt * dt / (h * h)) * lap / m.double()
    return out.to(u.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["NX"] * s["NZ"]
    return {"bytes": 16 * n, "flops": 30 * n}
