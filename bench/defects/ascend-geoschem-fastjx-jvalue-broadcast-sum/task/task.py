"""Photolysis rates of GEOS-Chem's Fast-JX (JRATET / J-value assembly) for every grid box.

Fast-JX computes, per grid box b, the mean actinic flux F[b, w] in each of its NW = 18 wavelength
bins (photons cm^-2 s^-1). Each cross-section set x (absorption cross section times quantum
yield, cm^2) is tabulated at three temperatures TT[0..2, x] (increasing); at the box temperature
T[b] it is interpolated linearly between the two bracketing temperatures and held constant
outside [TT0, TT2] (Fast-JX's X_interp). The J-value (s^-1) of set x in box b is

    J[b, x] = sum_w F[b, w] * XS_T[b, w, x],
    XS_T    = a0[b, x] * XS[0, w, x] + a1[b, x] * XS[1, w, x] + a2[b, x] * XS[2, w, x]

with the hat-function weights a0 + a1 + a2 = 1 of that interpolation. The mapping of the model's
photolysis reactions onto the sets (and their scale factors) follows outside this kernel.
"""
import torch

META = {
    "name": "fastjx_jvalues",
    "level": 2,
    "category": "atmospheric-chemistry",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-9, "rtol": 2e-3}},
    "sizes": {
        "small": {"NBOX": 96, "NW": 18, "NX": 64},
        "ragged": {"NBOX": 77, "NW": 18, "NX": 50},
        # GEOS-Chem 4x5 global grid: 72 x 46 columns x 72 levels
        "large": {"NBOX": 238464, "NW": 18, "NX": 64},
    },
    "baseline_notes": "20 programs (the A2's AI cores: cube + vector per program) loop over blocks of 64 boxes; "
                      "the flux tile [64, 32] (18 bins, masked) is multiplied with each of the three "
                      "temperature tables [32, NX] by tl.dot on the cube, and the vector unit combines the "
                      "three products with the per-(box, set) interpolation weights; one store per block.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """flux [NBOX, NW], temp [NBOX] (K), xs [3, NW, NX] (cm^2), tt [3, NX] (K, increasing)."""
    s = META["sizes"][size]
    nb, nw, nx = s["NBOX"], s["NW"], s["NX"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # actinic flux falls off towards the UV end of the 18 bins; attenuation varies per box
    solar = torch.logspace(11.0, 14.5, nw)
    flux = solar[None, :] * torch.rand(nb, nw, generator=g).mul(0.9).add(0.1)
    temp = 190.0 + 120.0 * torch.rand(nb, generator=g)
    # cross sections x quantum yields: each set absorbs in a band of bins, weakly T-dependent
    lo = torch.randint(0, nw - 3, (nx,), generator=g)
    width = torch.randint(3, nw, (nx,), generator=g)
    bins = torch.arange(nw)[:, None]
    band = ((bins >= lo[None, :]) & (bins < lo[None, :] + width[None, :])).float()
    mag = torch.pow(10.0, -17.0 - 4.0 * torch.rand(nx, generator=g))
    base = band * mag[None, :] * torch.rand(nw, nx, generator=g).add(0.2)
    tdep = 1.0 + 0.15 * torch.randn(3, nw, nx, generator=g).clamp(-2.0, 2.0)
    xs = base[None, :, :] * tdep.clamp(min=0.2)
    t0 = 180.0 + 40.0 * torch.rand(nx, generator=g)
    tt = torch.stack([t0, t0 + 40.0 + 20.0 * torch.rand(nx, generator=g),
                      t0 + 90.0 + 30.0 * torch.rand(nx, generator=g)])
    return (flux.to(dt).to(device), temp.to(dt).to(device), xs.to(dt).to(device), tt.to(dt).to(device))


def reference(flux: torch.Tensor, temp: torch.Tensor, xs: torch.Tensor, tt: torch.Tensor) -> torch.Tensor:
    f, t, x, tab = flux.double(), temp.double(), xs.double(), tt.double()
    tq = torch.minimum(torch.maximum(t[:, None], tab[0][None, :]), tab[2][None, :])      # [B, X]
    f01 = (tq - tab[0]) / (tab[1] - tab[0])
    f12 = (tq - tab[1]) / (tab[2] - tab[1])
    low = tq <= tab[1]
    a0 = torch.where(low, 1.0 - f01, torch.zeros_like(tq))
    a1 = torch.where(low, f01, 1.0 - f12)
    a2 = torch.where(low, torch.zeros_like(tq), f12)
    xs_t = (a0[:, None, :] * x[0][None] + a1[:, None, :] * x[1][None] + a2[:, None, :] * x[2][None])
    return torch.einsum("bw,bwx->bx", f, xs_t).to(flux.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    nb, nw, nx = s["NBOX"], s["NW"], s["NX"]
    return {"bytes": 4 * (nb * nw + nb + 3 * nw * nx + 3 * nx + nb * nx), "flops": 6 * nb * nw * nx + 12 * nb * nx}
