"""Effective wind speed of every turbine of a farm over a wind rose (PyWake All2All sweep, Bastankhah Gaussian).

One sweep of PyWake's All2AllIterative with BastankhahGaussianDeficit (Bastankhah & Porte-Agel 2014, k = 0.0324555,
ceps = 0.2), SquaredSum superposition and RotorCenter evaluation: for every wind direction wd_l, wind speed ws_k and
destination turbine i, the deficits of all source turbines j (thrust coefficients ct[l, k, j] from the previous
iteration) are combined as
    dx = x_i - x_j, dy = y_i - y_j, th = radians(wd_l)   (meteorological direction: wind blows FROM wd)
    dw = -(dx sin th + dy cos th)                          (down-wind distance of i behind j)
    cw =   dx cos th - dy sin th                           (cross-wind distance)
    eps_j   = 0.2 sqrt(beta_j),  beta_j = (1 + s_j) / (2 s_j),  s_j = sqrt(1 - min(ct_j, 0.999))
    sigma   = k dw + eps_j D
    deficit = ws_k (1 - sqrt(max(0, 1 - ct_j D^2 / (8 sigma^2)))) exp(-cw^2 / (2 sigma^2))   where dw > 0, else 0
    WS_eff[l, k, i] = ws_k - sqrt(sum_j deficit^2)
Arrays are laid out [wd, ws, wt] so that one flow case is a contiguous row. Large size: Horns Rev 1 (80 Vestas V80,
D = 80 m, 7 D spacing in a 10 x 8 parallelogram) over PyWake's default wind rose grid, 360 directions x 23 speeds
(3..25 m/s).
"""
import torch

META = {
    "name": "pywake_bastankhah_all2all_ws_eff",
    "level": 2,
    "category": "pairwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"n_wd": 4, "n_ws": 3, "cols": 4, "rows": 3},
        "ragged": {"n_wd": 5, "n_ws": 2, "cols": 5, "rows": 3},
        "large": {"n_wd": 360, "n_ws": 23, "cols": 10, "rows": 8},
    },
    "baseline_notes": "One launch of 40 programs (the vector cores of an Atlas A2) looping over the n_wd * n_ws flow "
                      "cases; per case the source row (ct, epsilon) is loaded once and destinations are taken "
                      "16 at a time as a [16, next_power_of_2(n_wt)] pair tile, deficits squared and summed along "
                      "the contiguous source axis, one 16-wide store per tile; direction cos/sin computed in-kernel.",
    "deterministic": True,
}
ROTOR_D = 80.0
K_EXP = 0.0324555


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [n_wt], y [n_wt] (m), wd [n_wd] (deg), ws [n_ws] (m/s), ct [n_wd, n_ws, n_wt], D (m), k."""
    s = META["sizes"][size]
    n_wd, n_ws, cols, rows = s["n_wd"], s["n_ws"], s["cols"], s["rows"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    c = torch.arange(cols, dtype=torch.float64).repeat(rows)
    r = torch.arange(rows, dtype=torch.float64).repeat_interleave(cols)
    x = 7.0 * ROTOR_D * c - 68.0 * r          # 7 D columns, rows skewed like Horns Rev 1
    y = 556.0 * r
    if n_wd == 360:
        wd = torch.arange(360, dtype=torch.float64)
    else:
        wd = torch.rand(n_wd, generator=g, dtype=torch.float64) * 360.0
    ws = torch.linspace(3.0, 25.0, n_ws, dtype=torch.float64) if n_ws > 1 else torch.tensor([8.0], dtype=torch.float64)
    ct_free = torch.where(ws <= 9.0, torch.full_like(ws, 0.8), 0.8 * (9.0 / ws).pow(2.2))
    ct = ct_free.view(1, n_ws, 1) * (0.9 + 0.15 * torch.rand(n_wd, n_ws, cols * rows, generator=g, dtype=torch.float64))
    ct = ct.clamp(0.02, 0.95)
    return (x.to(device=device, dtype=dt), y.to(device=device, dtype=dt), wd.to(device=device, dtype=dt),
            ws.to(device=device, dtype=dt), ct.to(device=device, dtype=dt), ROTOR_D, K_EXP)


def reference(x, y, wd, ws, ct, D, k):
    x64, y64, w64, c64 = x.double(), y.double(), ws.double(), ct.double()
    th = torch.deg2rad(wd.double())
    dx = x64[:, None] - x64[None, :]
    dy = y64[:, None] - y64[None, :]
    n_wd = th.shape[0]
    out = torch.empty_like(c64)
    for d0 in range(0, n_wd, 16):
        sn = torch.sin(th[d0:d0 + 16]).view(-1, 1, 1)
        cs = torch.cos(th[d0:d0 + 16]).view(-1, 1, 1)
        dw = -(dx * sn + dy * cs)[:, None]                    # [nd, 1, i, j]
        cw = (dx * cs - dy * sn)[:, None]
        cj = c64[d0:d0 + 16][:, :, None, :]                   # [nd, n_ws, 1, j]
        s1 = torch.sqrt(1.0 - cj.clamp(max=0.999))
        sigma = k * dw + 0.2 * torch.sqrt(0.5 * (1.0 + s1) / s1) * D
        down = dw > 0
        sigma = torch.where(down, sigma, torch.ones_like(sigma))
        rad = (1.0 - cj * D * D / (8.0 * sigma * sigma)).clamp(min=0.0)
        u = w64.view(1, -1, 1, 1)
        defi = u * (1.0 - torch.sqrt(rad)) * torch.exp(-cw * cw / (2.0 * sigma * sigma))
        defi = torch.where(down, defi, torch.zeros_like(defi))
        out[d0:d0 + 16] = w64.view(1, -1, 1) - torch.sqrt((defi * defi).sum(-1))
    return out.to(ct.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n_wt = s["cols"] * s["rows"]
    cases = s["n_wd"] * s["n_ws"]
    return {"bytes": 8 * cases * n_wt + 8 * n_wt + 4 * (s["n_wd"] + s["n_ws"]),
            "flops": 40 * cases * n_wt * n_wt}
