"""Change vector analysis (CVA) magnitude between two co-registered Sentinel-2 L2A acquisitions.

Both dates are band-sequential [B, H, W] surface reflectance on the 20 m grid; each band's difference is
standardised by a per-band weight w_b (1 / std of that band's difference image), and the change magnitude of
a pixel is sqrt(sum_b (w_b * (x2_b - x1_b))^2), thresholded downstream into a change map.
"""
import torch

META = {
    "name": "s2_cva_change_magnitude",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 10, "H": 24, "W": 43},
        "ragged": {"B": 10, "H": 37, "W": 91},
        "large": {"B": 10, "H": 5490, "W": 5490},
    },
    "baseline_notes": "Grid of 40 programs (the vector cores), each walking 2048-pixel tiles with a stride of the grid: "
                      "for each of the 10 bands loads the two dates' contiguous pixel runs, weights the difference "
                      "and accumulates its square in an fp32 tile, then one sqrt and one store per tile; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x1, x2 [B, H, W] reflectance (two dates), w [B] per-band weights."""
    s = META["sizes"][size]
    B, H, W = s["B"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x1 = 0.02 + 0.4 * torch.rand(B, H, W, generator=g)
    x2 = x1 + 0.01 * torch.randn(B, H, W, generator=g)
    changed = torch.rand(H, W, generator=g) < 0.1
    x2 = torch.where(changed[None], 0.02 + 0.4 * torch.rand(B, H, W, generator=g), x2)
    w = 1.0 / (0.03 + 0.05 * torch.rand(B, generator=g))
    return x1.to(dt).to(device), x2.to(dt).to(device), w.to(dt).to(device)


def reference(x1, x2, w):
    d = (x2.double() - x1.double()) * w.double()[:, None, None]
    return torch.sqrt((d * d).sum(0)).to(x1.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["H"] * s["W"]
    return {"bytes": 8 * s["B"] * n + 4 * n + 4 * s["B"], "flops": 4 * s["B"] * n + n}
