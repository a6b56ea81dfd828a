"""Implicit vertical eddy diffusion of CMAQ (the tridiagonal solve of vdiffacmx: MATRIX1 + TRI), per column and species.

For each species s and column c the mixing ratios of the NLAY layers are advanced one backward-Euler
step of length dt through the eddy-diffusion operator, with surface emissions entering layer 0 and
dry deposition as a first-order loss at the surface:

    -lo_k x_{k-1} + (1 + lo_k + up_k + dd_k) x_k - up_k x_{k+1} = conc_k + em_k
    up_k = dt * kz_k     / (dzf_k * dzh_k)         (k < NLAY-1; kz_{NLAY-1} = 0, a closed model top)
    lo_k = dt * kz_{k-1} / (dzf_k * dzh_{k-1})     (k > 0)
    dd_0 = dt * vd_s / dzf_0,  em_0 = dt * emis_s / dzf_0  (zero above layer 0)

kz_k is the eddy diffusivity on the top face of layer k (m^2/s), dzf_k the layer thickness and dzh_k
the distance between the mid-points of layers k and k+1 (m); vd the dry-deposition velocity (m/s)
and emis the surface emission flux (ppm m/s) of each species. Layout as CMAQ's CGRID(COL,ROW,LAY,SPC):
conc [NSPC, NLAY, NCOL] with the NCOL = NROWS * NCOLS horizontal cells contiguous.
"""
import torch

META = {
    "name": "cmaq_vdiff_implicit",
    "level": 2,
    "category": "atmospheric-transport",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-4}},
    "sizes": {
        "small": {"NSPC": 3, "NLAY": 35, "NCOL": 300},
        "ragged": {"NSPC": 2, "NLAY": 13, "NCOL": 333},
        # CMAQ 12US1 domain (459 x 299 columns, 35 layers), a batch of 16 diffused species
        "large": {"NSPC": 16, "NLAY": 35, "NCOL": 137241},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over (species, 512-column block) items; per "
                      "item a forward sweep over the layers stores the elimination factor and the reduced "
                      "right-hand side and carries the previous layer's values in registers, then a backward "
                      "sweep carries x_{k+1}; all tiles are contiguous 512-column rows; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """conc [NSPC, NLAY, NCOL] ppm, kz/dzf/dzh [NLAY, NCOL], vd/emis [NSPC, NCOL], dt (s)."""
    s = META["sizes"][size]
    ns, nl, nc = s["NSPC"], s["NLAY"], s["NCOL"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # layer thicknesses growing from ~20 m at the surface to ~1.5 km aloft
    base = 20.0 * torch.pow(torch.tensor(1.13), torch.arange(nl, dtype=torch.float32))
    dzf = base[:, None] * (0.9 + 0.2 * torch.rand(nl, nc, generator=g))
    dzh = torch.empty(nl, nc)
    dzh[:-1] = 0.5 * (dzf[:-1] + dzf[1:])
    dzh[-1] = dzf[-1]
    # boundary-layer diffusivity: large below a column-dependent PBL top, background above
    zf = torch.cumsum(dzf, 0)
    pbl = 300.0 + 1700.0 * torch.rand(nc, generator=g)
    kz = torch.where(zf < pbl[None, :], 5.0 + 95.0 * torch.rand(nl, nc, generator=g),
                     0.1 + 0.9 * torch.rand(nl, nc, generator=g))
    kz[-1] = 0.0
    conc = torch.rand(ns, nl, nc, generator=g) * torch.logspace(-4, 0, ns)[:, None, None]
    vd = 0.02 * torch.rand(ns, nc, generator=g)
    emis = 0.01 * torch.rand(ns, nc, generator=g) * torch.logspace(-4, 0, ns)[:, None]
    t = lambda v: v.to(dt).to(device)
    return t(conc), t(kz), t(dzf), t(dzh), t(vd), t(emis), 60.0


def reference(conc, kz, dzf, dzh, vd, emis, dt: float) -> torch.Tensor:
    c, k, f, h = conc.double(), kz.double(), dzf.double(), dzh.double()
    nl = c.shape[1]
    up = dt * k / (f * h)                                  # [NLAY, NCOL]
    lo = torch.zeros_like(up)
    lo[1:] = dt * k[:-1] / (f[1:] * h[:-1])
    diag = (1.0 + lo + up)[None].repeat(c.shape[0], 1, 1)  # [NSPC, NLAY, NCOL]
    diag[:, 0] += dt * vd.double() / f[0]
    rhs = c.clone()
    rhs[:, 0] += dt * emis.double() / f[0]
    # Thomas algorithm, vectorised over species and columns
    g = torch.empty_like(rhs)
    d = torch.empty_like(rhs)
    g[:, 0] = up[0] / diag[:, 0]
    d[:, 0] = rhs[:, 0] / diag[:, 0]
    for i in range(1, nl):
        den = diag[:, i] - lo[i] * g[:, i - 1]
        g[:, i] = up[i] / den
        d[:, i] = (rhs[:, i] + lo[i] * d[:, i - 1]) / den
    x = torch.empty_like(rhs)
    x[:, nl - 1] = d[:, nl - 1]
    for i in range(nl - 2, -1, -1):
        x[:, i] = d[:, i] + g[:, i] * x[:, i + 1]
    return x.to(conc.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    ns, nl, nc = s["NSPC"], s["NLAY"], s["NCOL"]
    return {"bytes": 4 * (2 * ns * nl * nc + 3 * nl * nc + 2 * ns * nc), "flops": 14 * ns * nl * nc}
