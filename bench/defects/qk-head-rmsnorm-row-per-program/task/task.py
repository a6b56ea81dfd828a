"""Per-head RMSNorm of the queries (Qwen3 q_norm): each [head_dim] vector of q [T, H, D] scaled by rsqrt(mean(q^2) + eps) and the weight, fp32 math."""
import torch

META = {
    "name": "head_rmsnorm",
    "level": 1,
    "category": "norm",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 3e-2, "rtol": 2e-2}, "float16": {"atol": 5e-3, "rtol": 5e-3}},
    "sizes": {
        "small": {"T": 7, "H": 5, "D": 64},
        "ragged": {"T": 1001, "H": 12, "D": 128},
        "large": {"T": 32768, "H": 32, "D": 128},
    },
    "baseline_notes": "The [T * H, D] view in [32, D] tiles: 32 head vectors per program, fp32 sum of squares along "
                      "the row, 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q [T, H, D] from the q projection, weight [D] fp32, eps."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    q = torch.randn(s["T"], s["H"], s["D"], generator=g) * (0.5 + torch.rand(1, s["H"], 1, generator=g))
    w = 1.0 + 0.1 * torch.randn(s["D"], generator=g)
    return q.to(dt).to(device), w.to(device), 1e-6


def reference(q: torch.Tensor, w: torch.Tensor, eps: float) -> torch.Tensor:
    x = q.float()
    return (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * w).to(q.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["T"] * s["H"] * s["D"]
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize + 4 * s["D"], "flops": 4 * n}
