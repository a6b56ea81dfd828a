"""Gated linear unit along the last dim, F.glu(x, dim=-1) = x[..., :n] * sigmoid(x[..., n:]) (FlagGems glu), bf16."""
import torch

META = {
    "name": "glu",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"M": 8, "N2": 512},
        "ragged": {"M": 1001, "N2": 3002},
        "large": {"M": 16384, "N2": 8192},
    },
    "baseline_notes": "Grid (rows, 1024-column blocks of the output): both halves loaded as bf16, the gate "
                      "computed in fp32 registers, bf16 stored; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["M"], s["N2"], generator=g).to(getattr(torch, dtype or META["dtypes"][0]))
    return (x.to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.glu(x.float(), dim=-1).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["M"] * s["N2"]
    return {"bytes": (n + n // 2) * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 3 * n}
