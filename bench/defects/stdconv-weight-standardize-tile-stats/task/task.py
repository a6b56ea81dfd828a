"""Weight standardisation of a conv kernel (StdConv2d): (w - mean) / sqrt(var + eps) per output channel, biased var."""
import torch

META = {
    "name": "weight_standardize",
    "level": 1,
    "category": "norm",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"C": 24, "CI": 20, "KS": 3},
        "ragged": {"C": 301, "CI": 77, "KS": 3},
        "large": {"C": 8192, "CI": 512, "KS": 3},
    },
    "baseline_notes": "One program per output channel: a two-pass mean / variance loop over its CI*KS*KS weights in "
                      "1024-wide blocks, then a normalise loop; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """w [C, CI, KS, KS] conv weight (fp32 master copy), eps."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    w = torch.randn(s["C"], s["CI"], s["KS"], s["KS"], generator=g) * 0.05 + 0.01
    return w.to(getattr(torch, dtype or META["dtypes"][0])).to(device), 1e-6


def reference(w: torch.Tensor, eps: float) -> torch.Tensor:
    flat = w.double().reshape(w.shape[0], -1)
    mean = flat.mean(dim=1, keepdim=True)
    var = flat.var(dim=1, unbiased=False, keepdim=True)
    return ((flat - mean) / torch.sqrt(var + eps)).reshape(w.shape).to(w.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["C"] * s["CI"] * s["KS"] * s["KS"]
    return {"bytes": 8 * n, "flops": 5 * n}
