"""FlagGems upsample_nearest2d (F.interpolate(x, scale_factor=2, mode="nearest")) on a batch of small feature maps."""
import torch

META = {
    "name": "upsample_nearest2d",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"N": 3, "C": 4, "H": 5, "W": 7},
        "ragged": {"N": 17, "C": 48, "H": 19, "W": 23},
        "large": {"N": 256, "C": 64, "H": 32, "W": 32},
    },
    "baseline_notes": "One launch, grid (output rows, channels, images), one output row of 2W per program.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    return (torch.randn(s["N"], s["C"], s["H"], s["W"], generator=g).to(dt).to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return x.repeat_interleave(2, dim=2).repeat_interleave(2, dim=3)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["N"] * s["C"] * s["H"] * s["W"]
    return {"bytes": 5 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 0}
