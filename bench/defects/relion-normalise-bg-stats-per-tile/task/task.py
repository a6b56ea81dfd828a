"""Background normalisation of extracted particles (RELION relion_preprocess --norm --no_ramp, normalise()).

Each particle image of a BOX x BOX stack is normalised with the statistics of its background, the pixels
outside a circle of radius bg_radius around the box centre (RELION's logical origin at BOX//2):

    bg    = { (i, j) : (j - BOX//2)^2 + (i - BOX//2)^2 > bg_radius^2 }
    mean  = sum_bg I / n_bg,   stddev = sqrt(sum_bg I^2 / n_bg - mean^2)
    out   = (I - mean) / stddev

bg_radius defaults to 75 % of half the box (RELION's --bg_radius -1). Returns out [N, BOX, BOX] fp32.
"""
import torch

META = {
    "name": "relion_normalise_background",
    "level": 2,
    "category": "normalization",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 3, "BOX": 16},
        "ragged": {"N": 5, "BOX": 22},
        "large": {"N": 2048, "BOX": 256},
    },
    "baseline_notes": "Two launches. Statistics: grid (N,), each program walks its particle in [4, BW] row tiles "
                      "(BW = next_power_of_2(BOX)), masks the background circle and keeps per-lane sum / sum of "
                      "squares / count, then writes mean and 1/stddev. Normalise: grid (cdiv(BOX, 4), N), each "
                      "program loads its particle's two scalars and rescales a [4, BW] tile. 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """imgs [N, BOX, BOX]: a soft particle disc on a noisy background with a per-particle offset and scale; bg_radius."""
    s = META["sizes"][size]
    n, box = s["N"], s["BOX"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    c = torch.arange(box, dtype=torch.float32) - box // 2
    r = torch.sqrt(c[None, :] ** 2 + c[:, None] ** 2)
    disc = torch.sigmoid((0.3 * box - r) / 2.0)
    offset = 4.0 * torch.rand(n, 1, 1, generator=g) - 2.0
    scale = 0.5 + 1.5 * torch.rand(n, 1, 1, generator=g)
    imgs = offset + scale * (torch.randn(n, box, box, generator=g) + 0.8 * disc[None])
    bg_radius = 0.75 * (box // 2)
    return imgs.to(device=device, dtype=dt).contiguous(), bg_radius


def reference(imgs: torch.Tensor, bg_radius: float) -> torch.Tensor:
    box = imgs.shape[-1]
    x = imgs.double()
    c = torch.arange(box, dtype=torch.float64, device=x.device) - box // 2
    bg = (c[None, :] ** 2 + c[:, None] ** 2) > bg_radius * bg_radius
    vals = x[:, bg]
    mean = vals.mean(dim=1)
    std = torch.sqrt((vals * vals).mean(dim=1) - mean * mean)
    return ((x - mean[:, None, None]) / std[:, None, None]).to(imgs.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    pix = s["N"] * s["BOX"] * s["BOX"]
    return {"bytes": 8 * pix, "flops": 6 * pix}
