"""Inclusive cumulative sum along the sequence dim of [B, L, H] activations (torch.cumsum(x, dim=1), e.g. cumulative log-decays of linear-attention / RWKV-style models)."""
import torch

META = {
    "name": "cumsum_seq_dim",
    "level": 1,
    "category": "scan",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "L": 70, "H": 48},
        "ragged": {"B": 3, "L": 1001, "H": 333},
        "large": {"B": 8, "L": 4096, "H": 2048},
    },
    "baseline_notes": "Grid (batch, 32-channel block): [64, 32] tiles (128-byte row segments) walked down the sequence, tl.cumsum along "
                      "axis 0 plus the carried per-channel prefix; rows contiguous in memory.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, L, H] (negative log-decays with noise)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = -0.01 + 0.1 * torch.randn(s["B"], s["L"], s["H"], generator=g)
    return (x.to(getattr(torch, dtype or META["dtypes"][0])).to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.cumsum(x.double(), dim=1).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["L"] * s["H"]
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": n}
