"""One explicit finite-volume step of Fickian solid-phase diffusion in spherical particles, as in
PyBaMM's single-particle / many-particle models (pybamm.particle.FickianDiffusion on a uniform
radial mesh of R shells, Neumann surface flux from the interfacial current), for a large population
of particles (a particle-size distribution across a sweep of cells).

Particle p has radius Rp_p, diffusivity D_p and stoichiometry theta[p, i] in shells i = 0..R-1
(dr = Rp_p / R, shell i spans [i dr, (i+1) dr]); flux[p] is the outward molar flux at the surface
divided by c_max (m/s, j / (F c_max); positive when the particle delithiates). With
V_i = (i+1)^3 - i^3:

    theta_i' = theta_i + dt * 3 D / (dr^2 V_i) * [ (i+1)^2 (theta_{i+1} - theta_i) - i^2 (theta_i - theta_{i-1}) ]

where at the surface shell (i = R-1) the outer term (i+1)^2 (theta_{i+1} - theta_i) is replaced by
-R^2 dr flux / D. Returns (theta' [P, R], volume-averaged stoichiometry sum_i V_i theta_i' / R^3 [P],
surface stoichiometry theta'_{R-1} - dr flux / (2 D) [P]), all fp32.
"""
import torch

META = {
    "name": "spm_particle_diffusion_step",
    "level": 2,
    "category": "battery-simulation",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"P": 12, "R": 20},
        "ragged": {"P": 29, "R": 13},
        "large": {"P": 262144, "R": 20},
    },
    "baseline_notes": "Grid over blocks of 64 particles; each program holds a [64, next_pow2(R)] tile, loads "
                      "theta at i-1, i, i+1 (masked at the centre and the surface) and the per-particle radius, "
                      "diffusivity and flux as columns, updates in fp32, stores the tile and the two per-particle "
                      "row reductions (volume average, surface value); 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """theta [P, R], radius [P] (m), diffusivity [P] (m^2/s), flux [P] (m/s), dt (s)."""
    s = META["sizes"][size]
    p, r = s["P"], s["R"]
    g = torch.Generator().manual_seed(seed)
    dt_ = getattr(torch, dtype or META["dtypes"][0])
    radius = 5e-6 * torch.exp(0.25 * torch.randn(p, generator=g, dtype=torch.float64)).clamp(0.4, 1.6)
    diff = 1e-14 * torch.exp(0.3 * torch.randn(p, generator=g, dtype=torch.float64)).clamp(0.5, 2.0)
    # particles mid-discharge: a surface gradient on top of a mean stoichiometry per particle
    mean = 0.3 + 0.5 * torch.rand(p, 1, generator=g, dtype=torch.float64)
    shape = (torch.arange(r, dtype=torch.float64) + 0.5)[None, :] / r
    theta = mean + 0.05 * (torch.rand(p, 1, generator=g, dtype=torch.float64) - 0.5) * shape ** 2 \
        + 1e-3 * torch.randn(p, r, generator=g, dtype=torch.float64)
    flux = 4e-9 * torch.randn(p, generator=g, dtype=torch.float64)
    t = [theta, radius, diff, flux]
    return (*[x.to(device=device, dtype=dt_) for x in t], 0.1)


def reference(theta, radius, diff, flux, dt) -> tuple:
    c, rp, d, f = (x.double() for x in (theta, radius, diff, flux))
    n_r = c.shape[1]
    i = torch.arange(n_r, dtype=torch.float64, device=c.device)
    vol = (i + 1) ** 3 - i ** 3
    dr = (rp / n_r)[:, None]
    outer = torch.zeros_like(c)
    outer[:, :-1] = (i[:-1] + 1) ** 2 * (c[:, 1:] - c[:, :-1])
    outer[:, -1] = -(n_r ** 2) * dr[:, 0] * f / d
    inner = torch.zeros_like(c)
    inner[:, 1:] = i[1:] ** 2 * (c[:, 1:] - c[:, :-1])
    c_new = c + dt * 3.0 * d[:, None] / (dr * dr * vol) * (outer - inner)
    avg = (c_new * vol).sum(1) / n_r ** 3
    surf = c_new[:, -1] - 0.5 * dr[:, 0] * f / d
    return c_new.to(theta.dtype), avg.to(theta.dtype), surf.to(theta.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    p, r = s["P"], s["R"]
    return {"bytes": 4 * (2 * p * r + 5 * p), "flops": 15 * p * r}
