"""One x-direction step of CMAQ's horizontal advection with the piecewise parabolic method (hppm.F, Colella & Woodward 1984).

Every row (species, layer, grid row) of NX cells is advanced by the 1-D PPM update on a uniform grid:
  slopes   dm_i = van Leer-limited 0.5 (c_{i+1} - c_{i-1})  (zero at extrema)
  edges    a_{i+1/2} = 0.5 (c_i + c_{i+1}) - (dm_{i+1} - dm_i) / 6
  parabola per cell: CW84 monotonicity limits (aL, aR), da = aR - aL, a6 = 6 (c - (aL + aR) / 2)
  face value at i+1/2 for Courant number s (|s| < 1): from cell i when s >= 0,
           aR_i - s/2 (da_i - (1 - 2s/3) a6_i), from cell i+1 when s < 0,
           aL_{i+1} + |s|/2 (da_{i+1} + (1 - 2|s|/3) a6_{i+1})
  update   c'_i = c_i - (s_{i+1/2} v_{i+1/2} - s_{i-1/2} v_{i-1/2})
The lateral boundaries are zero-gradient: the three ghost cells on each side repeat the edge cell.
conc [NSPC, NLAY, NROW, NX] (x contiguous, CMAQ's CGRID order), cour [NLAY, NROW, NX + 1] the
Courant numbers u dt / dx on the x faces (face f lies between cells f-1 and f).
"""
import torch

META = {
    "name": "cmaq_hppm_x",
    "level": 2,
    "category": "atmospheric-transport",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-4}},
    "sizes": {
        "small": {"NSPC": 2, "NLAY": 3, "NROW": 4, "NX": 40},
        "ragged": {"NSPC": 2, "NLAY": 2, "NROW": 3, "NX": 37},
        # CMAQ 12US1 domain: 459 x 299 cells, 35 layers, a batch of 8 advected species
        "large": {"NSPC": 8, "NLAY": 35, "NROW": 299, "NX": 459},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over rows; a row is one BX = next_power_of_2(NX) "
                      "tile; the seven stencil neighbours are loaded as shifted contiguous rows under bounds "
                      "masks and the ghost cells are filled from the row's first/last cell with float "
                      "position compares; slopes, edges, limited parabolas and the two face fluxes are "
                      "computed per lane; one store per row; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """conc [NSPC, NLAY, NROW, NX] (ppm, smooth background plus plumes), cour [NLAY, NROW, NX + 1]."""
    s = META["sizes"][size]
    ns, nl, nr, nx = s["NSPC"], s["NLAY"], s["NROW"], s["NX"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.arange(nx, dtype=torch.float32)
    phase = 6.283 * torch.rand(ns, nl, nr, 1, generator=g)
    conc = 1.0 + 0.5 * torch.sin(x / 7.0 + phase)
    # narrow plumes (point sources) and a sharp front exercise the limiters
    centre = torch.randint(0, nx, (ns, nl, nr, 3), generator=g).float()
    for p in range(3):
        conc = conc + 4.0 * torch.exp(-((x - centre[..., p:p + 1]) / 1.5) ** 2)
    front = torch.randint(0, nx, (ns, nl, nr, 1), generator=g).float()
    conc = conc + 2.0 * (x > front).float()
    conc = conc * torch.logspace(-3, 0, ns)[:, None, None, None]
    xf = torch.arange(nx + 1, dtype=torch.float32)
    wphase = 6.283 * torch.rand(nl, nr, 1, generator=g)
    cour = 0.7 * torch.sin(xf / 53.0 + wphase) + 0.15 * torch.randn(nl, nr, nx + 1, generator=g)
    cour = cour.clamp(-0.95, 0.95)
    return conc.to(dt).to(device), cour.to(dt).to(device)


def _ppm_faces(c: torch.Tensor, s: torch.Tensor) -> torch.Tensor:
    """Face values v_f, f = 0..NX, of rows padded with 3 ghost cells each side: c [..., NX + 6]."""
    cm, c0, cp = c[..., :-2], c[..., 1:-1], c[..., 2:]                  # centred on padded cells 1..NX+4
    dc = 0.5 * (cp - cm)
    dmin = torch.minimum(dc.abs(), torch.minimum(2.0 * (c0 - cm).abs(), 2.0 * (cp - c0).abs()))
    dm = torch.where((cp - c0) * (c0 - cm) > 0, torch.sign(dc) * dmin, torch.zeros_like(dc))
    edge = 0.5 * (c0[..., :-1] + c0[..., 1:]) - (dm[..., 1:] - dm[..., :-1]) / 6.0  # right edges of padded 1..NX+3
    cc = c[..., 2:-2]                                                   # padded cells 2..NX+3
    al, ar = edge[..., :-1], edge[..., 1:]
    flat = (ar - cc) * (cc - al) <= 0
    da, mid = ar - al, cc - 0.5 * (al + ar)
    al2 = torch.where(flat, cc, torch.where(da * mid > da * da / 6.0, 3.0 * cc - 2.0 * ar, al))
    ar2 = torch.where(flat, cc, torch.where(-da * da / 6.0 > da * mid, 3.0 * cc - 2.0 * al, ar))
    da2 = ar2 - al2
    a6 = 6.0 * (cc - 0.5 * (al2 + ar2))
    # face f (between real cells f-1 and f) has upwind-left cell index f (padded 2+f-1 -> local f) and right f+1
    sl = s
    left = ar2[..., :-1] - 0.5 * sl * (da2[..., :-1] - (1.0 - 2.0 * sl / 3.0) * a6[..., :-1])
    sr = -s
    right = al2[..., 1:] + 0.5 * sr * (da2[..., 1:] + (1.0 - 2.0 * sr / 3.0) * a6[..., 1:])
    return torch.where(s >= 0, left, right)


def reference(conc: torch.Tensor, cour: torch.Tensor) -> torch.Tensor:
    c = conc.double()
    s = cour.double()[None].expand(c.shape[0], -1, -1, -1)
    pad = torch.cat([c[..., :1].expand(*c.shape[:-1], 3), c, c[..., -1:].expand(*c.shape[:-1], 3)], dim=-1)
    v = _ppm_faces(pad, s)                                              # [..., NX + 1]
    flux = s * v
    return (c - (flux[..., 1:] - flux[..., :-1])).to(conc.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    cells = s["NSPC"] * s["NLAY"] * s["NROW"] * s["NX"]
    return {"bytes": 8 * cells + 4 * s["NLAY"] * s["NROW"] * (s["NX"] + 1), "flops": 120 * cells}
