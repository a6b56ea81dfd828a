"""Row sum of a float32 matrix (torch.sum(x, dim=-1)), a local task for the atomics defect case."""
import torch

META = {
    "name": "rowsum_f32",
    "level": 1,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"M": 32, "N": 1024},
        "ragged": {"M": 1000, "N": 3001},
        "large": {"M": 4096, "N": 16384},
    },
    "baseline_notes": "One program per row looping over 1024-column chunks, fp32 accumulator, "
                      "tl.sum at the end; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """One [M, N] tensor of standard normals."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["M"], s["N"], generator=g)
    return (x.to(device=device, dtype=getattr(torch, dtype or META["dtypes"][0])),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.sum(x.double(), dim=-1).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * (s["M"] * s["N"] + s["M"]), "flops": s["M"] * s["N"]}
