"""HLLC Riemann solver for adiabatic hydrodynamics (Athena++ hydro/rsolvers/hydro/hllc.cpp), x1 sweep.

For every x1 interface of the mesh, the reconstructed left / right primitive states
wl, wr [5, K, J, I+1] (rho, vx, vy, vz, p; vx normal to the interface) give the HLLC flux of
(mass, x/y/z momentum, total energy) as Athena++ computes it:
  - PVRS middle-state pressure pmid (Toro 10.5.2) from the average density and sound speed,
  - wave speeds al = vxl - cl ql, ar = vxr + cr qr with the shock corrections
    q = sqrt(1 + (gamma+1)/(2 gamma) (pmid/p - 1)) where pmid > p, else 1,
    bp = max(ar, TINY), bm = min(al, -TINY),
  - contact speed am = (tl - tr)/(ml + mr) and contact pressure cp = max((ml tr + mr tl)/(ml + mr), 0),
  - the flux  sl F_L(bm) + sr F_R(bp) + sm (0, cp, 0, 0, cp am)  with the weights of the side am is on.
gamma is the adiabatic index. Returns flux [5, K, J, I+1].
"""
import torch

META = {
    "name": "hllc_flux_x1",
    "level": 2,
    "category": "riemann-solver",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"K": 2, "J": 3, "I": 8},
        "ragged": {"K": 3, "J": 5, "I": 7},
        "large": {"K": 256, "J": 256, "I": 256},
    },
    "baseline_notes": "One launch over all K*J*(I+1) interfaces of the mesh: 40 programs (the A2's vector cores) "
                      "loop over blocks of 512 interfaces, load the 10 state components (component stride "
                      "K*J*(I+1)), evaluate the HLLC flux elementwise and store 5 flux components; no autotune.",
    "deterministic": True,
}
TINY_NUMBER = 1.0e-20


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """wl, wr [5, K, J, I+1] (rho, p > 0; neighbouring states with jumps of a few tens of percent), gamma."""
    s = META["sizes"][size]
    shape = (s["K"], s["J"], s["I"] + 1)
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])

    def state(base):
        w = torch.empty((5,) + shape)
        w[0] = base[0] * torch.exp(0.3 * torch.randn(shape, generator=g))
        w[1:4] = base[1] + 0.8 * torch.randn((3,) + shape, generator=g)
        w[4] = base[2] * torch.exp(0.4 * torch.randn(shape, generator=g))
        return w

    rho = torch.exp(0.7 * torch.randn(shape, generator=g))
    vel = 0.5 * torch.randn(shape, generator=g)
    prs = torch.exp(0.7 * torch.randn(shape, generator=g))
    wl = state((rho, vel, prs))
    wr = state((rho, vel, prs))
    return wl.to(dt).to(device), wr.to(dt).to(device), 5.0 / 3.0


def reference(wl: torch.Tensor, wr: torch.Tensor, gamma: float) -> torch.Tensor:
    L, R = wl.double(), wr.double()
    dl, ul, vl, zl, pl = L
    dr, ur, vr, zr, pr = R
    igm1 = 1.0 / (gamma - 1.0)
    cl = torch.sqrt(gamma * pl / dl)
    cr = torch.sqrt(gamma * pr / dr)
    el = pl * igm1 + 0.5 * dl * (ul * ul + vl * vl + zl * zl)
    er = pr * igm1 + 0.5 * dr * (ur * ur + vr * vr + zr * zr)
    rhoa = 0.5 * (dl + dr)
    ca = 0.5 * (cl + cr)
    pmid = 0.5 * (pl + pr + (ul - ur) * rhoa * ca)
    gfac = (gamma + 1.0) / (2.0 * gamma)
    ql = torch.where(pmid <= pl, 1.0, torch.sqrt(1.0 + gfac * (pmid / pl - 1.0).clamp(min=0.0)))
    qr = torch.where(pmid <= pr, 1.0, torch.sqrt(1.0 + gfac * (pmid / pr - 1.0).clamp(min=0.0)))
    al = ul - cl * ql
    ar = ur + cr * qr
    bp = torch.where(ar > 0.0, ar, TINY_NUMBER)
    bm = torch.where(al < 0.0, al, -TINY_NUMBER)
    vxl = ul - al
    vxr = ur - ar
    tl_ = pl + vxl * dl * ul
    tr_ = pr + vxr * dr * ur
    ml = dl * vxl
    mr = -(dr * vxr)
    am = (tl_ - tr_) / (ml + mr)
    cp = ((ml * tr_ + mr * tl_) / (ml + mr)).clamp(min=0.0)
    vxl = ul - bm
    vxr = ur - bp
    fl = torch.stack([dl * vxl, dl * ul * vxl + pl, dl * vl * vxl, dl * zl * vxl, el * vxl + pl * ul])
    fr = torch.stack([dr * vxr, dr * ur * vxr + pr, dr * vr * vxr, dr * zr * vxr, er * vxr + pr * ur])
    pos = am >= 0.0
    sl = torch.where(pos, am / (am - bm), 0.0)
    sr = torch.where(pos, 0.0, -am / (bp - am))
    sm = torch.where(pos, -bm / (am - bm), bp / (bp - am))
    flx = sl * fl + sr * fr
    flx[1] += sm * cp
    flx[4] += sm * cp * am
    return flx.to(wl.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["K"] * s["J"] * (s["I"] + 1)
    return {"bytes": 4 * 15 * n, "flops": 110 * n}
