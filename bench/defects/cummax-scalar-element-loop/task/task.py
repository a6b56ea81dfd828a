"""Cumulative maximum along the last dim with its indices (torch.cummax(x, dim=-1)): values and int64 positions of the running max (the later position on ties)."""
import torch

META = {
    "name": "cummax",
    "level": 1,
    "category": "scan",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"M": 6, "N": 300},
        "ragged": {"M": 101, "N": 5001},
        "large": {"M": 1024, "N": 32768},
    },
    "baseline_notes": "One program per row, 1024-column blocks scanned with tl.associative_scan on (value, index) "
                      "pairs, the running (max, argmax) of the previous blocks carried as scalars; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [M, N] of standard normals with a slow upward drift, so the running max keeps changing along the row."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["M"], s["N"], generator=g) + torch.linspace(0.0, 4.0, s["N"])
    return (x.to(getattr(torch, dtype or META["dtypes"][0])).to(device),)


def reference(x: torch.Tensor) -> tuple:
    v, i = torch.cummax(x, dim=-1)
    return v, i


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    n = s["M"] * s["N"]
    return {"bytes": n * (2 * item + 8), "flops": n}
