"""L2 normalisation of each head vector, y = x / sqrt(sum(x^2) + eps), as FLA's l2norm on q/k [B*T*H, D] (GatedDeltaNet, Qwen3-Next)."""
import torch

META = {
    "name": "l2norm",
    "level": 1,
    "category": "norm",
    "dtypes": ["float16", "bfloat16", "float32"],
    "tolerance": {"float16": {"atol": 2e-3, "rtol": 1e-2}, "bfloat16": {"atol": 1e-2, "rtol": 2e-2},
                  "float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"T": 100, "D": 128},
        "ragged": {"T": 100_003, "D": 128},
        "large": {"T": 1_048_576, "D": 128},
    },
    "baseline_notes": "64 rows per program as a [64, next_pow2(D)] tile, fp32 sum of squares along the row, "
                      "rsqrt, one store; 4 warps; no autotune.",
    "deterministic": True,
}

EPS = 1e-6


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [T, D] of standard normals (the flattened q or k heads)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["T"], s["D"], generator=g).to(getattr(torch, dtype or META["dtypes"][0]))
    return (x.to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    xf = x.float()
    return (xf * torch.rsqrt((xf * xf).sum(-1, keepdim=True) + EPS)).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["T"] * s["D"]
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 3 * n}
