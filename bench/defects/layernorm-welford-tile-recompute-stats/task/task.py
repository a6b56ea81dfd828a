"""Layer norm over the last dim (torch.nn.functional.layer_norm(x, (N,), w, b, eps)) with Welford statistics, fp32 math, result in x's dtype."""
import torch

META = {
    "name": "layer_norm_welford",
    "level": 1,
    "category": "norm",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 3e-2, "rtol": 2e-2}, "float16": {"atol": 5e-3, "rtol": 5e-3}},
    "sizes": {
        "small": {"M": 9, "N": 2500},
        "ragged": {"M": 1001, "N": 3001},
        "large": {"M": 16384, "N": 8192},
    },
    "baseline_notes": "One program per row: a Welford loop over 1024-column blocks (per-lane mean, M2 and count merged "
                      "with tl.reduce), then a loop that normalises and stores; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [M, N] (rows with their own offset and scale), weight and bias [N] fp32, eps."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["M"], s["N"], generator=g) * (1 + torch.rand(s["M"], 1, generator=g)) + 3 * torch.randn(s["M"], 1, generator=g)
    w = 1.0 + 0.1 * torch.randn(s["N"], generator=g)
    b = 0.1 * torch.randn(s["N"], generator=g)
    return x.to(dt).to(device), w.to(device), b.to(device), 1e-5


def reference(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor, eps: float) -> torch.Tensor:
    return torch.nn.functional.layer_norm(x.float(), (x.shape[-1],), w, b, eps).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["M"] * s["N"]
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize + 8 * s["N"], "flops": 8 * n}
