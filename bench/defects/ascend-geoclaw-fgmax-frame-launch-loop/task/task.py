"""Inundation maxima on a fixed grid from stored output frames (GeoClaw fgmax from fgout frames).

GeoClaw's fgmax grids record, per cell of a fixed grid, the maximum water depth, the maximum flow
speed and the tsunami arrival time; here they are computed from T stored frames of a fixed output
grid (fgout), frame k taken at time t_k = (k + 1) * dt_out:
    hmax[i]  = max_k h_k[i]                                          (0 if never wet)
    smax[i]  = max_k sqrt(hu_k^2 + hv_k^2) / h_k  over frames with h_k > dry_tol   (0 if never wet)
    tarr[i]  = min t_k over frames with h_k > dry_tol and eta_k = h_k + B > sea_level + arrival_tol
               (+inf if the wave never arrives)
Inputs: h, hu, hv [T, ny, nx] fp32 (depth, discharges), B [ny, nx] fp32 (topography, m above sea
level), dt_out (s). Returns (hmax, smax, tarr), each fp32 [ny, nx].
"""
import torch

DRY_TOL = 1e-3
SEA_LEVEL = 0.0
ARRIVAL_TOL = 0.01

META = {
    "name": "fgmax_from_frames",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"T": 6, "ny": 24, "nx": 40},
        "ragged": {"T": 5, "ny": 19, "nx": 67},
        "large": {"T": 36, "ny": 2048, "nx": 2048},
    },
    "baseline_notes": "One launch: 40 programs (the A2's vector cores) stride over blocks of 2048 cells; per "
                      "block the topography is loaded once, the T frames are streamed while hmax, smax and the "
                      "arrival time stay in the unified buffer, and the three results are stored once. No "
                      "autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A harbour grid (sloping beach, dry land in the east) flooded by an incoming wave over T frames."""
    s = META["sizes"][size]
    T, ny, nx = s["T"], s["ny"], s["nx"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    y = torch.linspace(0.0, 1.0, ny)[:, None]
    x = torch.linspace(0.0, 1.0, nx)[None, :]
    topo = -30.0 + 45.0 * x + 3.0 * torch.sin(7.0 * y) + 0.5 * torch.randn(ny, nx, generator=g)
    h = torch.empty(T, ny, nx)
    hu = torch.empty(T, ny, nx)
    hv = torch.empty(T, ny, nx)
    for k in range(T):
        front = (k + 1) / T                       # wave front travelling east
        eta = 4.0 * torch.exp(-((x - front) / 0.15) ** 2) * (1.0 + 0.1 * torch.sin(13.0 * y + k))
        eta = eta + 0.05 * torch.randn(ny, nx, generator=g)
        hk = (eta - topo).clamp(min=0.0)
        hk = torch.where(hk < 0.01, torch.zeros_like(hk), hk)
        u = 2.0 * eta / (1.0 + hk.sqrt()) + 0.1 * torch.randn(ny, nx, generator=g)
        v = 0.3 * torch.randn(ny, nx, generator=g)
        h[k] = hk
        hu[k] = torch.where(hk > 0, hk * u, torch.zeros_like(hk))
        hv[k] = torch.where(hk > 0, hk * v, torch.zeros_like(hk))
    dt_out = 100.0
    return (h.to(dt).to(device), hu.to(dt).to(device), hv.to(dt).to(device), topo.to(dt).to(device),
            dt_out)


def reference(h: torch.Tensor, hu: torch.Tensor, hv: torch.Tensor, topo: torch.Tensor,
              dt_out: float) -> tuple:
    T = h.shape[0]
    wet = h > DRY_TOL
    # eta in the storage precision, as the fgmax update forms it; arrival compared on it
    arrived = wet & ((h + topo[None]) > SEA_LEVEL + ARRIVAL_TOL)
    hd = h.double()
    hs = torch.where(wet, hd, torch.ones_like(hd))
    speed = torch.sqrt(hu.double() ** 2 + hv.double() ** 2) / hs
    speed = torch.where(wet, speed, torch.zeros_like(speed))
    hmax = hd.clamp(min=0.0).amax(dim=0)
    smax = speed.amax(dim=0)
    times = torch.tensor([(k + 1) * dt_out for k in range(T)], dtype=torch.float32,
                         device=h.device)[:, None, None]
    tarr = torch.where(arrived, times, torch.full_like(h, float("inf"))).amin(dim=0)
    return hmax.to(h.dtype), smax.to(h.dtype), tarr.to(h.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["ny"] * s["nx"]
    return {"bytes": 12 * s["T"] * n + 16 * n, "flops": 10 * s["T"] * n}
