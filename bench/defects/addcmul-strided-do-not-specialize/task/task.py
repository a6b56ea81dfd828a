"""FlagGems addcmul, out = input + value * tensor1 * tensor2, on 2-D bf16 tensors (the Adam-style update term)."""
import torch

META = {
    "name": "addcmul",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"M": 5, "N": 300},
        "ragged": {"M": 333, "N": 4000},
        "large": {"M": 8192, "N": 8192},
    },
    "baseline_notes": "Grid (rows, column blocks of 2048); row strides passed and specialised; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x, t1, t2 = (torch.randn(s["M"], s["N"], generator=g).to(dt).to(device) for _ in range(3))
    return x, t1, t2, 0.5


def reference(x: torch.Tensor, t1: torch.Tensor, t2: torch.Tensor, value: float) -> torch.Tensor:
    return (x.double() + value * t1.double() * t2.double()).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["M"] * s["N"]
    return {"bytes": 4 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 3 * n}
