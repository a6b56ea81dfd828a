"""FlagGems roll along the last dim (torch.roll(x, shifts=s, dims=-1)) on long fp32 rows."""
import torch

META = {
    "name": "roll_last_dim",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"M": 4, "N": 1000, "SHIFT": 77},
        "ragged": {"M": 129, "N": 30011, "SHIFT": 12345},
        "large": {"M": 4096, "N": 50000, "SHIFT": 20480},
    },
    "baseline_notes": "One program per row, 4096-column chunks, source column (j - shift) mod N; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    return torch.randn(s["M"], s["N"], generator=g).to(dt).to(device), s["SHIFT"]


def reference(x: torch.Tensor, shift: int) -> torch.Tensor:
    return torch.roll(x, shifts=shift, dims=-1)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 2 * s["M"] * s["N"] * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 0}
