"""Charged-track propagation through a solenoid field map with classical Runge-Kutta substeps.

The along-step of AdePT / Celeritas moves every charged track by its physics step length s in the
detector's magnetic field. The field is a CMS-like 3.8 T solenoid map on an (r, z) grid (Celeritas'
RZMapField form: Bz and Br per node, bilinear interpolation, Bx = Br x / r, By = Br y / r). The
equation of motion along the path length is
    dx/ds = u,   du/ds = kappa * (u x B(x)),   kappa = 0.299792458 * q / p   (1/(mm T), p in MeV/c),
integrated with classical RK4 in n equal substeps. n follows the chord (sagitta) criterion at the nominal
field: a substep may be at most h_max = sqrt(8 * delta_chord * R_nom), R_nom = p / (0.299792458 * B_NOM),
so n = clamp(ceil(s / h_max), 1, MAX_SUBSTEPS) (low-momentum tracks take many substeps). The direction is
renormalised at the end. Returns (new position [N, 3] mm, new direction [N, 3]).
"""
import math

import torch

META = {
    "name": "rzmap_rk4_propagation",
    "level": 3,
    "category": "ode-integration",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-3}},
    "sizes": {
        "small": {"N": 64},
        "ragged": {"N": 77},
        "large": {"N": 1048576},
    },
    "baseline_notes": "128 tracks per program (4 warps), the whole state (position, direction, kappa, substep "
                      "length) in registers; the program loops to the largest substep count of its tracks with "
                      "finished lanes frozen by tl.where; the field is gathered bilinearly from the r-z map "
                      "(L2-resident, 0.9 MiB) at each of the four RK stages. No autotune.",
    "deterministic": True,
}
C_LIGHT = 0.299792458     # MeV/c per (T mm)
B_NOM = 3.8               # T, nominal solenoid field for the chord criterion
DELTA_CHORD = 0.25        # mm, Geant4 / Celeritas default miss distance
MAX_SUBSTEPS = 100
# r-z map: r in [0, 9000] mm, z in [-16000, 16000] mm, 50 mm spacing
R_MAX, Z_MIN, Z_MAX, SPACING = 9000.0, -16000.0, 16000.0, 50.0


def _solenoid_map() -> torch.Tensor:
    """[NZ, NR, 2] (Bz, Br) in tesla: a 3.8 T solenoid (coil radius 3 m, half length 6.5 m) with a weak
    return field outside; Br from div B = 0 for the z profile."""
    r = torch.arange(0.0, R_MAX + 1e-3, SPACING, dtype=torch.float64)
    z = torch.arange(Z_MIN, Z_MAX + 1e-3, SPACING, dtype=torch.float64)
    zz, rr = torch.meshgrid(z, r, indexing="ij")
    w_z, half, w_r, coil = 1500.0, 6500.0, 250.0, 3000.0
    prof_z = 0.5 * (torch.tanh((half - zz) / w_z) + torch.tanh((half + zz) / w_z))
    dprof_z = 0.5 * (-(1 - torch.tanh((half - zz) / w_z) ** 2) + (1 - torch.tanh((half + zz) / w_z) ** 2)) / w_z
    inside = 0.5 * (1.0 - torch.tanh((rr - coil) / w_r))
    radial = inside - 0.35 * (1.0 - inside) * torch.exp(-(rr - coil) / 2500.0)
    bz = B_NOM * prof_z * radial
    br = -0.5 * rr * B_NOM * dprof_z * radial
    return torch.stack([bz, br], dim=-1)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pos [N, 3] mm, dir [N, 3] unit, p [N] MeV/c, charge [N] (+-1), step [N] mm, bmap [NZ, NR, 2] T."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    r0 = 1800.0 * torch.sqrt(torch.rand(n, generator=g)) + 100.0          # tracker / ECAL barrel region
    phi0 = torch.rand(n, generator=g) * 2 * math.pi
    z0 = torch.empty(n).uniform_(-3000.0, 3000.0, generator=g)
    pos = torch.stack([r0 * torch.cos(phi0), r0 * torch.sin(phi0), z0], dim=-1)
    cos_t = torch.empty(n).uniform_(-1.0, 1.0, generator=g)
    phi = torch.rand(n, generator=g) * 2 * math.pi
    sin_t = torch.sqrt(1.0 - cos_t * cos_t)
    direction = torch.stack([sin_t * torch.cos(phi), sin_t * torch.sin(phi), cos_t], dim=-1)
    p = torch.exp(torch.empty(n).uniform_(math.log(20.0), math.log(50000.0), generator=g))   # 20 MeV .. 50 GeV
    charge = torch.where(torch.rand(n, generator=g) < 0.5, -1.0, 1.0)
    step = torch.exp(torch.empty(n).uniform_(math.log(0.5), math.log(60.0), generator=g))    # mm
    return (pos.to(device=device, dtype=dt), direction.to(device=device, dtype=dt), p.to(device=device, dtype=dt),
            charge.to(device=device, dtype=dt), step.to(device=device, dtype=dt),
            _solenoid_map().to(device=device, dtype=dt))


def _field(bmap: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    nz, nr = bmap.shape[0], bmap.shape[1]
    r = torch.sqrt(x[:, 0] ** 2 + x[:, 1] ** 2)
    fr = (r / SPACING).clamp(0.0, nr - 1.0)
    fz = ((x[:, 2] - Z_MIN) / SPACING).clamp(0.0, nz - 1.0)
    ir = fr.floor().long().clamp(max=nr - 2)
    iz = fz.floor().long().clamp(max=nz - 2)
    ar, az = (fr - ir)[:, None], (fz - iz)[:, None]
    b = ((1 - az) * ((1 - ar) * bmap[iz, ir] + ar * bmap[iz, ir + 1])
         + az * ((1 - ar) * bmap[iz + 1, ir] + ar * bmap[iz + 1, ir + 1]))
    bz, br = b[:, 0], b[:, 1]
    inv_r = torch.where(r > 0, 1.0 / r.clamp(min=1e-30), torch.zeros_like(r))
    return torch.stack([br * x[:, 0] * inv_r, br * x[:, 1] * inv_r, bz], dim=-1)


def substeps(p: torch.Tensor, step: torch.Tensor) -> torch.Tensor:
    """Substep count per track, computed in the inputs' precision like the kernels do."""
    h_max = torch.sqrt(8.0 * DELTA_CHORD * p / (C_LIGHT * B_NOM))
    return torch.ceil(step / h_max).clamp(1.0, float(MAX_SUBSTEPS)).to(torch.int64)


def reference(pos, direction, p, charge, step, bmap) -> tuple:
    n_sub = substeps(p, step)
    x, u = pos.double(), direction.double()
    kappa = (C_LIGHT * charge.double() / p.double())[:, None]
    h = (step.double() / n_sub.double())[:, None]
    b = bmap.double()

    def deriv(xx, uu):
        return uu, kappa * torch.cross(uu, _field(b, xx), dim=-1)

    for s in range(int(n_sub.max())):
        act = (n_sub > s)[:, None]
        k1x, k1u = deriv(x, u)
        k2x, k2u = deriv(x + 0.5 * h * k1x, u + 0.5 * h * k1u)
        k3x, k3u = deriv(x + 0.5 * h * k2x, u + 0.5 * h * k2u)
        k4x, k4u = deriv(x + h * k3x, u + h * k3u)
        x = torch.where(act, x + h / 6.0 * (k1x + 2 * k2x + 2 * k3x + k4x), x)
        u = torch.where(act, u + h / 6.0 * (k1u + 2 * k2u + 2 * k3u + k4u), u)
    u = u / u.norm(dim=-1, keepdim=True)
    return x.to(pos.dtype), u.to(direction.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    # reads pos, dir, p, q, step; writes pos, dir. ~4 x (field ~40 + cross ~10) + ~40 flops per substep
    return {"bytes": n * (12 + 12 + 12 + 24), "flops": n * 3 * 240}
