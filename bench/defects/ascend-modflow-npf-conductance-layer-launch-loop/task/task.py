"""Horizontal cell-to-cell conductances of a layered MODFLOW 6 groundwater model (NPF package, DIS grid).

For a structured grid of nlay x nrow x ncol cells with column widths delr[j] and row widths delc[i], the
Node Property Flow package turns hydraulic conductivity into the conductance of every horizontal cell
connection. Each cell carries a transmissivity t = K * b, with b the full thickness top - bot when the
layer is confined (icelltype == 0) and the saturated thickness clamp(h - bot, 0, top - bot) when it is
convertible (icelltype != 0). MODFLOW's harmonic-mean conductance (condmean, icellavg 0) between two cells
of transmissivities t1, t2, with centre-to-face distances cl1, cl2 across a face of width w, is
    C = w * t1 * t2 / (t1 * cl2 + t2 * cl1)    if t1 * t2 > 0, else 0.
Returns (cr, cc), both fp32 [nlay, nrow, ncol] in MODFLOW-2005's CR / CC convention:
    cr[k, i, j]: cell (k, i, j) to (k, i, j+1), K = k11, w = delc[i], cl = delr[j] / 2, delr[j+1] / 2
                 (0 in the last column);
    cc[k, i, j]: cell (k, i, j) to (k, i+1, j), K = k22, w = delr[j], cl = delc[i] / 2, delc[i+1] / 2
                 (0 in the last row).
"""
import torch

META = {
    "name": "modflow_npf_horizontal_conductance",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"nlay": 3, "nrow": 6, "ncol": 7},
        "ragged": {"nlay": 4, "nrow": 11, "ncol": 13},
        "large": {"nlay": 30, "nrow": 300, "ncol": 250},
    },
    "baseline_notes": "One launch for the whole grid: 40 programs (the 910B's vector cores) loop over "
                      "(layer, block of 4 model rows) pairs, each a [4, next_power_of_2(ncol)] tile with "
                      "the column axis contiguous; the cell, east and south neighbour values are shifted "
                      "masked loads, the layer's icelltype a scalar load per block; no autotune.",
    "deterministic": True,
}
N_CONVERTIBLE = 2  # upper layers with a water table (icelltype 1); the rest are confined


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """head, top, bot, k11, k22 [nlay, nrow, ncol]; delr [ncol], delc [nrow] (m); icelltype [nlay] int32."""
    s = META["sizes"][size]
    nlay, nrow, ncol = s["nlay"], s["nrow"], s["ncol"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    delr = 100.0 + 400.0 * torch.rand(ncol, generator=g)
    delc = 100.0 + 400.0 * torch.rand(nrow, generator=g)
    x = torch.cumsum(delr, 0) / delr.sum()
    y = torch.cumsum(delc, 0) / delc.sum()
    land = 120.0 + 25.0 * torch.sin(3.0 * x)[None, :] + 15.0 * torch.cos(2.0 * y)[:, None]
    thick = 4.0 + 16.0 * torch.rand(nlay, nrow, ncol, generator=g)
    bot = land[None] - torch.cumsum(thick, 0)
    top = bot + thick
    wt = land - 2.0 - 10.0 * torch.rand(nrow, ncol, generator=g)       # water table, some upper cells dry
    head = wt[None].expand(nlay, nrow, ncol) + 0.5 * torch.randn(nlay, nrow, ncol, generator=g)
    k11 = 10.0 ** (-1.0 + 3.0 * torch.rand(nlay, nrow, ncol, generator=g))   # m/d
    k22 = k11 * (0.3 + 0.7 * torch.rand(nlay, nrow, ncol, generator=g))
    icelltype = torch.zeros(nlay, dtype=torch.int32)
    icelltype[:N_CONVERTIBLE] = 1
    to = lambda t: t.to(dt).to(device)
    return (to(head), to(top), to(bot), to(k11), to(k22), to(delr), to(delc), icelltype.to(device))


def _condmean(t1, t2, w, cl1, cl2):
    den = t1 * cl2 + t2 * cl1
    return torch.where(t1 * t2 > 0, w * t1 * t2 / torch.where(t1 * t2 > 0, den, torch.ones_like(den)),
                       torch.zeros_like(den))


def reference(head, top, bot, k11, k22, delr, delc, icelltype) -> tuple:
    h, tp, bt = head.double(), top.double(), bot.double()
    dr, dc = delr.double(), delc.double()
    thk = tp - bt
    satthk = torch.minimum((h - bt).clamp_min(0.0), thk)
    b = torch.where((icelltype != 0)[:, None, None], satthk, thk)
    t11, t22 = k11.double() * b, k22.double() * b
    cr = torch.zeros_like(h)
    cc = torch.zeros_like(h)
    cr[:, :, :-1] = _condmean(t11[:, :, :-1], t11[:, :, 1:], dc[None, :, None],
                              0.5 * dr[None, None, :-1], 0.5 * dr[None, None, 1:])
    cc[:, :-1, :] = _condmean(t22[:, :-1, :], t22[:, 1:, :], dr[None, None, :],
                              0.5 * dc[None, :-1, None], 0.5 * dc[None, 1:, None])
    return cr.to(head.dtype), cc.to(head.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["nlay"] * s["nrow"] * s["ncol"]
    return {"bytes": 4 * 5 * n + 4 * 2 * n + 4 * (s["nrow"] + s["ncol"] + s["nlay"]), "flops": 24 * n}
