"""Histogram with equal-width bins (torch.histc(x, bins, min, max)): values outside [min, max] ignored, max in the last bin."""
import torch

META = {
    "name": "histc",
    "level": 1,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 20011, "BINS": 64},
        "ragged": {"N": 1000003, "BINS": 256},
        "large": {"N": 67108864, "BINS": 256},
    },
    "baseline_notes": "1024 programs, each looping over its share of 4096-value blocks and counting them with "
                      "tl.histogram into a register histogram; one atomic add per bin per program; 8 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N] activations (an int8 calibration pass collects their histogram), bins, min, max (bin width a power of 2)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["N"], generator=g) * 1.5
    return x.to(getattr(torch, dtype or META["dtypes"][0])).to(device), s["BINS"], -4.0, 4.0


def reference(x: torch.Tensor, bins: int, lo: float, hi: float) -> torch.Tensor:
    return torch.histc(x, bins=bins, min=lo, max=hi)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["N"] + 4 * s["BINS"], "flops": 3 * s["N"]}
