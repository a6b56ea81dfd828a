"""Row sum over the last dimension (torch.sum(x, dim=-1))."""
import torch

META = {
    "name": "sum",
    "level": 1,
    "category": "reduction",
    "dtypes": ["float16", "bfloat16", "float32"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2},
                  "bfloat16": {"atol": 2e-2, "rtol": 2e-2},
                  "float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"M": 64, "N": 128},
        "ragged": {"M": 1000, "N": 1531},
        "large": {"M": 8192, "N": 8192},
    },
    "baseline_notes": "One program per row, BLOCK = next_power_of_2(N), whole row in registers, fp32 accumulation; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """One [M, N] tensor of standard normals."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["M"], s["N"], generator=g)
    return (x.to(device=device, dtype=getattr(torch, dtype or META["dtypes"][0])),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return x.float().sum(dim=-1).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": s["M"] * s["N"] * item + s["M"] * item, "flops": s["M"] * s["N"]}
