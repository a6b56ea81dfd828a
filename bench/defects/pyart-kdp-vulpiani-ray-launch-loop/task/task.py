"""Specific differential phase by the Vulpiani et al. (2012) iterative method (Py-ART kdp_vulpiani).

Per ray (pyart.retrieve.kdp_proc._kdp_vulpiani_profile, windsize l = 10, l2 = l / 2, C-band limits
th1 = -2, th2 = 20 deg/km, std_th = 5, n_iter = 10, dr in km):
  1. first guess on the core gates l2 <= j < n - l2: kdp[j] = (psidp[j + l2] - psidp[j - l2]) / (2 l dr),
     0 on the ray ends; values <= th1, >= th2 or undefined (a masked psidp in the window) set to 0;
  2. texture censoring: kdp[j] = 0 where the population std of kdp over [j - l2, j + l2] exceeds std_th;
  3. n_iter times: phidp_rec = cumsum(kdp) * 2 dr, kdp[j] = (phidp_rec[j + l2] - phidp_rec[j - l2]) / (2 l dr)
     on the core gates, 0 on the ends, then the th1 / th2 limits again;
  4. kdp is censored where psidp was masked, and phidp_rec = cumsum(kdp) * 2 dr (masked gates count 0).
Masked psidp gates hold Py-ART's fill value -9999 on input; kdp and phidp_rec are -9999 there on output.
Returns (kdp [rays, gates] fp32 deg/km, phidp_rec [rays, gates] fp32 deg).
"""
import torch

META = {
    "name": "kdp_vulpiani",
    "level": 2,
    "category": "weather-radar",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"rays": 3, "gates": 150},
        "ragged": {"rays": 5, "gates": 203},
        "large": {"rays": 7200, "gates": 492},
    },
    "baseline_notes": "One launch over the volume, one program per ray (grid = rays): the ray lives in a "
                      "BLOCK_G = next_power_of_2(gates) register tile; the shifted reads of the window "
                      "difference and the texture go through the ray's own row of the output buffers "
                      "(store, barrier, load), the cumulative sums are tl.cumsum. 4 warps, no autotune.",
    "deterministic": True,
}

FILL = -9999.0
WINDSIZE = 10
N_ITER = 10
TH1, TH2, STD_TH = -2.0, 20.0, 5.0   # C band
DR_M = 500.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """psidp [R, G] (deg, -9999 = masked), gate spacing dr (m), windsize, n_iter."""
    s = META["sizes"][size]
    n_rays, n_gates = s["rays"], s["gates"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    dr_km = DR_M / 1000.0
    j = torch.arange(n_gates, dtype=torch.float64)[None, :]
    # rain cells along each ray: Gaussian KDP bumps (deg/km) on a weak background
    kdp = 0.05 + torch.zeros(n_rays, n_gates, dtype=torch.float64)
    for _ in range(3):
        centre = torch.rand(n_rays, 1, generator=g, dtype=torch.float64) * n_gates
        width = 4.0 + 16.0 * torch.rand(n_rays, 1, generator=g, dtype=torch.float64)
        amp = 3.0 * torch.rand(n_rays, 1, generator=g, dtype=torch.float64) ** 2
        kdp = kdp + amp * torch.exp(-0.5 * ((j - centre) / width) ** 2)
    offset = 60.0 + 40.0 * torch.rand(n_rays, 1, generator=g, dtype=torch.float64)   # system phase
    psidp = offset + 2.0 * dr_km * torch.cumsum(kdp, dim=1)
    psidp = psidp + 3.0 * torch.randn(n_rays, n_gates, generator=g, dtype=torch.float64)
    # backscatter / clutter spikes of 1-3 gates and, on some rays, a sustained residual fold jump
    for _ in range(4):
        start = torch.randint(0, n_gates, (n_rays, 1), generator=g)
        width = torch.randint(1, 4, (n_rays, 1), generator=g)
        size = (20.0 + 40.0 * torch.rand(n_rays, 1, generator=g, dtype=torch.float64))
        size = size * torch.where(torch.rand(n_rays, 1, generator=g) < 0.5, -1.0, 1.0)
        psidp = psidp + size * ((j >= start) & (j < start + width))
    # no echo beyond a ray-dependent range and in some clear-air gaps
    last = (0.55 + 0.45 * torch.rand(n_rays, 1, generator=g)) * n_gates
    jump_at = (torch.rand(n_rays, 1, generator=g) * last).long()
    jump = (90.0 + 90.0 * torch.rand(n_rays, 1, generator=g, dtype=torch.float64)) * (torch.rand(n_rays, 1, generator=g) < 0.5)
    psidp = psidp + jump * (j >= jump_at)
    gap_start = torch.rand(n_rays, 1, generator=g) * n_gates
    gap_len = 15.0 * torch.rand(n_rays, 1, generator=g)
    jj = torch.arange(n_gates)[None, :]
    masked = (jj > last) | ((jj >= gap_start) & (jj < gap_start + gap_len))
    masked |= torch.rand(n_rays, n_gates, generator=g) < 0.02
    psidp = psidp.to(dt)
    psidp[masked] = FILL
    # where a value sits within 1e-3 of a limit at some step of the method, the psidp gates it is computed
    # from (+-windsize) are censored, so that the result does not depend on rounding (fp32 vs fp64)
    for _ in range(10):
        near = _near_limits(psidp, DR_M, WINDSIZE, N_ITER)
        if not near.any():
            break
        feed = torch.nn.functional.max_pool1d(near[:, None].float(), 2 * WINDSIZE + 1, 1, WINDSIZE)[:, 0] > 0
        psidp[feed] = FILL
    return psidp.to(device), DR_M, WINDSIZE, N_ITER


def _window_diff(x: torch.Tensor, l2: int, scale: float) -> torch.Tensor:
    out = torch.zeros_like(x)
    out[:, l2:x.shape[1] - l2] = (x[:, 2 * l2:] - x[:, :-2 * l2]) * scale
    return out


def _limits(k: torch.Tensor) -> torch.Tensor:
    return torch.where((k > TH1) & (k < TH2), k, torch.zeros_like(k))


def _vulpiani(psidp: torch.Tensor, dr: float, windsize: int, n_iter: int, eps: float = 0.0) -> tuple:
    """The method in float64: (kdp before censoring, valid mask, gates within eps of a limit)."""
    x = psidp.double()
    valid = x != FILL
    psi = torch.where(valid, x, torch.full_like(x, float("nan")))
    l2 = windsize // 2
    drm = dr / 1000.0
    scale = 1.0 / (2.0 * windsize * drm)
    n_gates = x.shape[1]
    near = torch.zeros_like(valid)

    def close(k, limits):
        hit = torch.zeros_like(valid)
        for lim in limits:
            hit |= (k - lim).abs() < eps
        return hit

    raw = _window_diff(psi, l2, scale)
    near |= close(raw, (TH1, TH2))
    kdp = _limits(raw)                                    # NaN fails both limits -> 0
    tex = torch.zeros_like(kdp)
    tex[:, l2:n_gates - l2] = kdp.unfold(1, 2 * l2 + 1, 1).std(dim=-1, unbiased=False)
    near |= close(tex, (STD_TH,))
    kdp = torch.where(tex > STD_TH, torch.zeros_like(kdp), kdp)
    for _ in range(n_iter):
        rec = torch.cumsum(kdp, dim=1) * 2.0 * drm
        raw = _window_diff(rec, l2, scale)
        near |= close(raw, (TH1, TH2))
        kdp = _limits(raw)
    return kdp, valid, near


def _near_limits(psidp: torch.Tensor, dr: float, windsize: int, n_iter: int) -> torch.Tensor:
    return _vulpiani(psidp, dr, windsize, n_iter, eps=1e-3)[2]


def reference(psidp: torch.Tensor, dr: float, windsize: int, n_iter: int) -> tuple:
    x = psidp.double()
    drm = dr / 1000.0
    kdp, valid, _ = _vulpiani(psidp, dr, windsize, n_iter)
    kdp = torch.where(valid, kdp, torch.zeros_like(kdp))
    rec = torch.cumsum(kdp, dim=1) * 2.0 * drm
    fill = torch.full_like(x, FILL)
    return torch.where(valid, kdp, fill).to(psidp.dtype), torch.where(valid, rec, fill).to(psidp.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["rays"] * s["gates"]
    return {"bytes": 12 * n, "flops": (30 + 12 * N_ITER) * n}
