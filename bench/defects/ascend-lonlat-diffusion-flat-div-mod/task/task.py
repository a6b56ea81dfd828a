"""Explicit horizontal diffusion step on a regular 0.25-degree lat-lon grid (the del^2 hyper/diffusion
filter of a global weather model, applied per channel to FourCastNet / SFNO ERA5 state fields):
out = T + nu * (T[north] + T[south] + T[west] + T[east] - 4 T), periodic in longitude, zero-flux at
the poles (the missing north / south neighbour is the point itself). T fp32 [C, H, W]."""
import torch

META = {
    "name": "latlon_horizontal_diffusion",
    "level": 1,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"C": 3, "H": 9, "W": 40},
        "ragged": {"C": 5, "H": 13, "W": 77},
        "large": {"C": 73, "H": 721, "W": 1440},
    },
    "baseline_notes": "Grid = 40 vector cores; each program walks its share of the C*H rows, one [2048] UB tile "
                      "per row: the row's pole clamp is one scalar compare, the longitude wrap a select on the "
                      "column index, no per-element integer division.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """state [C, H, W] (smooth fields plus noise) and the diffusion number nu."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    C, H, W = s["C"], s["H"], s["W"]
    lat = torch.linspace(-1.5707963, 1.5707963, H)[:, None]
    lon = torch.linspace(0.0, 6.2831853, W + 1)[:-1][None, :]
    base = torch.cos(lat) * torch.sin(3.0 * lon) + 0.5 * torch.sin(2.0 * lat)
    amp = torch.rand(C, 1, 1, generator=g) * 10.0
    state = amp * base[None] + torch.randn(C, H, W, generator=g)
    dt = getattr(torch, dtype or META["dtypes"][0])
    return state.to(dt).to(device), 0.1


def reference(state: torch.Tensor, nu: float) -> torch.Tensor:
    t = state.double()
    north = torch.cat([t[:, :1], t[:, :-1]], dim=1)
    south = torch.cat([t[:, 1:], t[:, -1:]], dim=1)
    west = torch.roll(t, 1, dims=2)
    east = torch.roll(t, -1, dims=2)
    return (t + nu * (north + south + west + east - 4.0 * t)).to(state.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["C"] * s["H"] * s["W"]
    return {"bytes": 8 * n, "flops": 6 * n}
