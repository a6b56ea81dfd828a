"""Daily rainfall accumulation from five-minute radar reflectivity composites (wradlib).

The wradlib recipe for a rain-gauge-free QPE: every scan of reflectivity (dBZ) is converted to
linear reflectivity with trafo.idecibel (Z = 10^(dBZ/10)), to rain rate with zr.z_to_r
(Marshall-Palmer Z = a R^b, R = (Z/a)^(1/b), a = 200, b = 1.6), to rain depth over the scan
interval with trafo.r_to_depth (mm = R * interval / 3600), and the depths of all scans of the day
are summed. Echoes below a minimum reflectivity (5 dBZ, clear-air / noise) count as no rain.

Inputs: dbz [T, H, W] fp32 (T scans of an H x W composite, e.g. the DWD RADOLAN RX 900 x 900 km
grid), a, b (Z-R coefficients), interval (seconds per scan), dbz_min. Output: depth [H, W] fp32 mm.
"""
import torch

META = {
    "name": "zr_rain_accumulation",
    "level": 1,
    "category": "weather-radar",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 2e-4}},
    "sizes": {
        "small": {"T": 6, "H": 20, "W": 24},
        "ragged": {"T": 5, "H": 17, "W": 29},
        "large": {"T": 288, "H": 900, "W": 900},
    },
    "baseline_notes": "One launch over the H*W pixels in blocks of 1024; each program walks all T scans, "
                      "converting dBZ -> Z -> R -> depth in fp32 registers (exp2/log2) and accumulating "
                      "the day's depth in a register, stored once. 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A day of scans: a field of rain cells advected across the grid over a noisy clear-air
    background, in dBZ (scan t is a window of a wider field shifted by the drift of t scans)."""
    s = META["sizes"][size]
    t_n, h, w = s["T"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    shift = max(1, w // 300)                      # pixels the rain field drifts per scan
    wide = w + shift * (t_n - 1)
    yy = torch.arange(h, dtype=torch.float32) / max(h - 1, 1)
    xx = torch.arange(wide, dtype=torch.float32) / max(w - 1, 1)
    n_cells = 8 + 2 * (wide // max(w, 1))
    field = torch.full((h, wide), -5.0)
    for _ in range(n_cells):
        cy, cx = torch.rand(2, generator=g).tolist()
        cx *= wide / max(w - 1, 1)
        width = 0.04 + 0.1 * torch.rand(1, generator=g).item()
        peak = 25.0 + 30.0 * torch.rand(1, generator=g).item()
        gy = torch.exp(-((yy - cy) ** 2) / (2 * width ** 2))
        gx = torch.exp(-((xx - cx) ** 2) / (2 * width ** 2))
        field = torch.maximum(field, peak * gy[:, None] * gx[None, :] - 5.0)
    noise = 4.0 * torch.randn(h + t_n, w, generator=g)
    dbz = torch.empty(t_n, h, w)
    for t in range(t_n):
        lo = shift * (t_n - 1 - t)
        torch.add(field[:, lo:lo + w], noise[t:t + h], out=dbz[t])
    return dbz.to(device=device, dtype=dt), 200.0, 1.6, 300.0, 5.0


def reference(dbz: torch.Tensor, a: float, b: float, interval: float, dbz_min: float) -> torch.Tensor:
    depth = torch.zeros(dbz.shape[1:], dtype=torch.float64, device=dbz.device)
    for t in range(dbz.shape[0]):
        x = dbz[t].double()
        z = 10.0 ** (x / 10.0)                      # trafo.idecibel
        r = (z / a) ** (1.0 / b)                     # zr.z_to_r
        depth += torch.where(x < dbz_min, 0.0, r * interval / 3600.0)   # trafo.r_to_depth
    return depth.to(dbz.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["T"] * s["H"] * s["W"]
    return {"bytes": 4 * n + 4 * s["H"] * s["W"], "flops": 8 * n}
