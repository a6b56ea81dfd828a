"""Semi-supervised hydrometeor classification with entropy (Py-ART hydroclass_semisupervised, Besic et al. 2016).

Per gate (pyart.retrieve.echo_class._standardize and _assign_to_class, C-band centroids of the MeteoSwiss
Albis radar, weights (1, 1, 1, 0.75, 0.5), compute_entropy=True, value = 50):
  standardize to [-1, 1]:  Zh in (-10, 60) dBZ, ZDR in (-1.5, 5) dB,
                           KDP: 10 log10(max(KDP, -0.5) + 0.6) in (-10, 7),
                           RhoHV: 10 log10(1 - min(RhoHV, 1)) in (-50, -5.23),
                           relH = T * 1000 / lapse_rate (m above the 0 degC level): 2 / (1 + exp(-0.005 relH)) - 1,
                           (values below / above the limits clip to -1 / 1);
  d_k = sqrt(sum_v w_v (c_kv - x_v)^2) to the 9 standardized centroids c_k;
  class = argmin_k d_k + 1 (DS CR LR GR RN VI WS MH IH), 0 where Zh is masked;
  p_k = exp(-t_class d_k) / sum_j exp(-t_class d_j) with t the per-class coefficients of
  _compute_coeff_transform (log(value) / distance to the nearest other centroid);
  entropy = -sum_k p_k log(p_k) / log(9)  (fill value -9999 where Zh is masked).
The standardized centroids and t are prepared on the host as Py-ART does before _assign_to_class;
the weights are Py-ART's default np.array([1., 1., 1., 0.75, 0.5]) (float64).
Returns (hydro [rays, gates] uint8, entropy [rays, gates] fp32).
"""
import math

import torch

META = {
    "name": "hydroclass_semisupervised",
    "level": 2,
    "category": "weather-radar",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"rays": 6, "gates": 100},
        "ragged": {"rays": 7, "gates": 93},
        "large": {"rays": 7200, "gates": 492},
    },
    "baseline_notes": "Flat grid over the gates, BLOCK = 128 gates, 16 class lanes (9 used): the five fields "
                      "are standardized in registers, the weighted distances to the centroids form a "
                      "[16, BLOCK] fp32 tile (classes x gates, as Py-ART's dist array), tl.argmin picks the "
                      "class, and the transformed-distance proportions and their entropy are reduced along "
                      "the class axis. 4 warps, no autotune.",
    "deterministic": True,
}

FILL = -9999.0
LAPSE_RATE = -6.5
WEIGHTS = (1.0, 1.0, 1.0, 0.75, 0.5)
# C-band centroids derived for MeteoSwiss Albis: Zh, ZDR, KDP, RhoHV, relH (m)
MASS_CENTERS_C = (
    (13.5829, 0.4063, 0.0497, 0.9868, 1330.3),   # DS
    (2.8453, 0.2457, 0.0000, 0.9798, 653.8),     # CR
    (7.6597, 0.2180, 0.0019, 0.9799, -1426.5),   # LR
    (31.6815, 0.3926, 0.0828, 0.9978, 535.3),    # GR
    (39.4703, 1.0734, 0.4919, 0.9876, -1036.3),  # RN
    (4.8267, -0.5690, 0.0000, 0.9691, 869.8),    # VI
    (30.8613, 0.9819, 0.1998, 0.9845, -66.1),    # WS
    (52.3969, 2.1094, 2.4675, 0.9730, -1550.2),  # MH
    (50.6186, -0.0649, 0.0946, 0.9904, 1179.9),  # IH/HDG
)
LIMITS = ((60.0, -10.0), (5.0, -1.5), (7.0, -10.0), (-5.23, -50.0))


def _standardize(x: torch.Tensor, var: int) -> torch.Tensor:
    """Py-ART _standardize for variable index var (0 Zh, 1 ZDR, 2 KDP, 3 RhoHV, 4 relH), float64."""
    if var == 4:
        return 2.0 / (1.0 + torch.exp(-0.005 * x)) - 1.0
    if var == 2:
        x = 10.0 * torch.log10(x.clamp(min=-0.5) + 0.6)
    elif var == 3:
        x = 10.0 * torch.log10(1.0000000000001 - x.clamp(max=1.0))
    mx, mn = LIMITS[var]
    s = 2.0 * (x - mn) / (mx - mn) - 1.0
    s = torch.where(x < mn, torch.full_like(s, -1.0), s)
    return torch.where(x > mx, torch.full_like(s, 1.0), s)


def _centers_and_t(value: float = 50.0) -> tuple:
    mc = torch.tensor(MASS_CENTERS_C, dtype=torch.float64)
    mc_std = torch.stack([_standardize(mc[:, v].clone(), v) for v in range(5)], dim=1)
    w = torch.tensor(WEIGHTS, dtype=torch.float64)
    d = torch.sqrt((w[None, None, :] * (mc_std[:, None, :] - mc_std[None, :, :]) ** 2).sum(-1))
    second = torch.sort(d, dim=1).values[:, 1]
    return mc_std, math.log(value) / second


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """zh, zdr, kdp, rhohv, temperature [R, G] (zh -9999 = no echo), standardized centroids [9, 5],
    t coefficients [9], weights [5] float64, lapse rate (degC/km)."""
    s = META["sizes"][size]
    shape = (s["rays"], s["gates"])
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    mc = torch.tensor(MASS_CENTERS_C, dtype=torch.float64)
    cls = torch.randint(0, 9, shape, generator=g)
    c = mc[cls]
    noise = lambda: torch.randn(shape, generator=g, dtype=torch.float64)
    zh = c[..., 0] + 7.0 * noise()
    zdr = c[..., 1] + 0.5 * noise()
    kdp = c[..., 2] + (0.1 + 0.3 * c[..., 2]) * noise()
    rhohv = (c[..., 3] + 0.01 * noise()).clamp(0.7, 0.9995)
    relh = c[..., 4] + 600.0 * noise()
    temp = relh * LAPSE_RATE / 1000.0
    zh[torch.rand(shape, generator=g) < 0.2] = FILL
    mc_std, t_vals = _centers_and_t()
    fields = [f.to(dt) for f in (zh, zdr, kdp, rhohv, temp)]
    mc_std, t_vals = mc_std.to(dt), t_vals.to(dt)
    # gates whose two nearest centroids are closer than 1e-4 are set to no echo, so that the class does
    # not depend on rounding (fp32 vs fp64)
    dist = _distances(*fields, mc_std, torch.tensor(WEIGHTS, dtype=torch.float64), LAPSE_RATE)
    two = torch.topk(dist, 2, dim=-1, largest=False).values
    fields[0][(two[..., 1] - two[..., 0]) < 1e-4] = FILL
    weights = torch.tensor(WEIGHTS, dtype=torch.float64, device=device)
    return (*[f.to(device) for f in fields], mc_std.to(device), t_vals.to(device), weights, LAPSE_RATE)


def _distances(zh, zdr, kdp, rhohv, temp, centers, weights, lapse_rate) -> torch.Tensor:
    """Weighted distances [R, G, 9] of the standardized gates to the centroids, float64."""
    relh = temp.double() * (1000.0 / lapse_rate)
    c = centers.double()
    w = weights.double()
    d2 = torch.zeros(*zh.shape, c.shape[0], dtype=torch.float64, device=zh.device)
    for v, f in enumerate((zh, zdr, kdp, rhohv, relh)):
        x = _standardize(f.double(), v)
        d2 += w[v] * (c[:, v] - x[..., None]) ** 2
    return torch.sqrt(d2)


def reference(zh, zdr, kdp, rhohv, temp, centers, t_vals, weights, lapse_rate) -> tuple:
    masked = zh == FILL
    dist = _distances(zh, zdr, kdp, rhohv, temp, centers, weights, lapse_rate)    # [R, G, 9]
    best = torch.argmin(dist, dim=-1)
    t = t_vals.double()[best]
    p = torch.exp(-t[..., None] * dist)
    p = p / p.sum(-1, keepdim=True)
    ent = -torch.where(p > 0, p * torch.log(p), torch.zeros_like(p)).sum(-1) / math.log(centers.shape[0])
    hydro = torch.where(masked, torch.zeros_like(best), best + 1).to(torch.uint8)
    ent = torch.where(masked, torch.full_like(ent, FILL), ent)
    return hydro, ent.to(zh.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["rays"] * s["gates"]
    return {"bytes": 25 * n, "flops": 9 * 40 * n}
