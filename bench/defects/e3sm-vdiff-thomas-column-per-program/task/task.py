"""Implicit vertical diffusion solve of E3SM/EAM (vertical_diffusion: vd_lu_decomp + vd_lu_solve).

Every physics column holds one tridiagonal system over its levels (backward-Euler diffusion):
    -cc[k] x[k-1] + (1 + ca[k] + cc[k]) x[k] - ca[k] x[k+1] = q[k]
with ca[k] the coupling to the level below and cc[k] the coupling to the level above
(cc[0] = 0 at the model top, ca[nlev-1] = 0 at the surface). Arrays are laid out as in the
Fortran physics buffers, (pcols, pver) column-fastest, i.e. torch [nlev, ncol].
"""
import torch

META = {
    "name": "e3sm_vdiff_tridiag_solve",
    "level": 2,
    "category": "solver",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"NLEV": 12, "NCOL": 96},
        "ragged": {"NLEV": 17, "NCOL": 301},
        "large": {"NLEV": 72, "NCOL": 345600},
    },
    "baseline_notes": "One program per 256 adjacent columns, serial over levels: a downward elimination "
                      "sweep storing ze (scratch) and zf (in the output), then an upward back-substitution; "
                      "fp32, 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """ca, cc, q: [NLEV, NCOL]. ca/cc come from interface diffusivities over layer masses."""
    s = META["sizes"][size]
    nlev, ncol = s["NLEV"], s["NCOL"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # layer pressure thickness grows towards the surface; diffusivity peaks in the boundary layer
    level = torch.linspace(0.0, 1.0, nlev)[:, None]
    dp = (200.0 + 2300.0 * level) * (1.0 + 0.2 * torch.rand(nlev, ncol, generator=g))
    height = torch.linspace(1.0, 0.0, nlev + 1)[:, None]
    kv = torch.exp(5.0 * torch.exp(-height / 0.08) - 3.0 + torch.randn(nlev + 1, ncol, generator=g))
    gamma = kv * 4.0e3
    gamma[0] = 0.0
    gamma[nlev] = 0.0
    ca = gamma[1:] / dp
    cc = gamma[:-1] / dp
    q = 300.0 - 60.0 * (1.0 - level) + torch.randn(nlev, ncol, generator=g)
    return tuple(t.to(dt).contiguous().to(device) for t in (ca, cc, q))


def reference(ca: torch.Tensor, cc: torch.Tensor, q: torch.Tensor) -> torch.Tensor:
    a, c, d = ca.double(), cc.double(), q.double()
    nlev = a.shape[0]
    ze = torch.empty_like(a)
    zf = torch.empty_like(a)
    ze_prev = torch.zeros_like(a[0])
    zf_prev = torch.zeros_like(a[0])
    for k in range(nlev):
        den = 1.0 + a[k] + c[k] - c[k] * ze_prev
        ze_prev = a[k] / den
        zf_prev = (d[k] + c[k] * zf_prev) / den
        ze[k], zf[k] = ze_prev, zf_prev
    x = torch.empty_like(a)
    x[nlev - 1] = zf[nlev - 1]
    for k in range(nlev - 2, -1, -1):
        x[k] = zf[k] + ze[k] * x[k + 1]
    return x.to(q.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["NLEV"] * s["NCOL"]
    return {"bytes": 16 * n, "flops": 10 * n}
