"""DEM forward model and goodness of fit over an AIA map (demregpy dn2dem_pos, Hannah & Kontar 2012, with
aiapy temperature responses).

After the regularised inversion has produced a differential emission measure DEM(T) for every pixel, the
solver folds it back through the six EUV channel responses (94, 131, 171, 193, 211, 335 A) and scores it:
    dn_reg[y, x, c] = sum_t K[c, t] * DEM[y, x, t]
    chisq[y, x]     = sum_c ((dn_reg[y, x, c] - dn[y, x, c]) / edn[y, x, c])^2 / n_channels
K[c, t] is the channel's temperature response (DN cm^5 s^-1 px^-1) times the width of temperature bin t (K)
times 1e20, so DEM is in units of 1e20 cm^-5 K^-1 and dn in DN/s/px. Arrays are laid out as demregpy's:
dem [ny, nx, nt], dn / edn / dn_reg [ny, nx, nc], chisq [ny, nx]. Returns (dn_reg fp32, chisq fp32).
"""
import math

import torch

META = {
    "name": "dem_forward_chisq",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"NY": 6, "NX": 7, "NT": 32, "NC": 6},
        "ragged": {"NY": 5, "NX": 13, "NT": 21, "NC": 6},
        "large": {"NY": 2048, "NX": 2048, "NT": 32, "NC": 6},
    },
    "baseline_notes": "1-D grid over blocks of 64 pixels; each program loads its [64, next_pow2(nt)] DEM tile "
                      "(64 contiguous 128-byte rows), and for each of the 6 channels reduces DEM * K[c] along the "
                      "contiguous temperature axis, stores dn_reg and accumulates the weighted residual; one "
                      "chisq store per pixel. 4 warps, no autotune.",
    "deterministic": True,
}

LOGT_LO, LOGT_HI = 5.6, 7.2
# (peak log T, relative height) of each channel's response lobes, peak response in 1e-24 DN cm^5 s^-1 px^-1
CHANNELS = {
    94: (0.012, ((6.05, 0.35), (6.85, 1.0))),
    131: (0.020, ((5.65, 1.0), (7.05, 0.6))),
    171: (2.400, ((5.85, 1.0),)),
    193: (1.100, ((6.20, 1.0), (7.25, 0.15))),
    211: (0.450, ((6.30, 1.0),)),
    335: (0.030, ((6.45, 1.0), (5.55, 0.2))),
}


def temperature_response(nt: int) -> torch.Tensor:
    """K [6, nt]: response x bin width x 1e20, on nt equal bins of log T between 5.6 and 7.2."""
    edges = torch.linspace(LOGT_LO, LOGT_HI, nt + 1, dtype=torch.float64)
    centres = 0.5 * (edges[:-1] + edges[1:])
    width = 10.0 ** edges[1:] - 10.0 ** edges[:-1]
    rows = []
    for peak, lobes in CHANNELS.values():
        r = sum(h * torch.exp(-(centres - mu) ** 2 / (2 * 0.12 ** 2)) for mu, h in lobes)
        rows.append(peak * 1e-24 * r * width * 1e20)
    return torch.stack(rows)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """dem [NY, NX, NT], response K [NC, NT], observed dn [NY, NX, NC], its uncertainty edn [NY, NX, NC]."""
    s = META["sizes"][size]
    ny, nx, nt = s["NY"], s["NX"], s["NT"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    K = temperature_response(nt).float()
    centres = torch.linspace(LOGT_LO, LOGT_HI, nt + 1)[:-1] + 0.5 * (LOGT_HI - LOGT_LO) / nt
    peak_t = 6.0 + 0.45 * torch.rand(ny, nx, 1, generator=g)
    width = 0.08 + 0.2 * torch.rand(ny, nx, 1, generator=g)
    height = 10.0 ** (1.0 + 1.5 * torch.rand(ny, nx, 1, generator=g))          # 10 .. 316 x 1e20
    dem = height * torch.exp(-(centres - peak_t) ** 2 / (2 * width * width))
    dem.mul_(torch.rand(ny, nx, nt, generator=g).mul_(0.3).add_(0.85))           # inversion wiggles
    dn_true = (dem.view(-1, nt) @ K.t()).view(ny, nx, -1)
    edn = torch.sqrt(2.5 + 0.3 * dn_true)                                         # read noise + shot noise
    dn = dn_true + edn * torch.randn(dn_true.shape, generator=g)
    return dem.to(dt).to(device), K.to(dt).to(device), dn.to(dt).to(device), edn.to(dt).to(device)


def reference(dem: torch.Tensor, K: torch.Tensor, dn: torch.Tensor, edn: torch.Tensor) -> tuple:
    dn_reg = torch.einsum("yxt,ct->yxc", dem.double(), K.double())
    chisq = (((dn_reg - dn.double()) / edn.double()) ** 2).sum(-1) / K.shape[0]
    return dn_reg.to(dem.dtype), chisq.to(dem.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    npix = s["NY"] * s["NX"]
    return {"bytes": 4 * npix * (s["NT"] + 3 * s["NC"] + 1), "flops": 2 * npix * s["NT"] * s["NC"]}
