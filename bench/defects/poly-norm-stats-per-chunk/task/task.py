"""PolyNorm (Liger-Kernel poly_norm, the Motif activation norm): y = w0 * norm(x^3) + w1 * norm(x^2) + w2 * norm(x) + b, norm(u) = u / sqrt(mean(u^2) + eps) over each row."""
import torch

META = {
    "name": "poly_norm",
    "level": 2,
    "category": "norm",
    "dtypes": ["bfloat16", "float16", "float32"],
    "tolerance": {"bfloat16": {"atol": 3e-2, "rtol": 3e-2}, "float16": {"atol": 1e-2, "rtol": 1e-2},
                  "float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"M": 6, "N": 3000},
        "ragged": {"M": 1001, "N": 5003},
        "large": {"M": 8192, "N": 8192},
    },
    "baseline_notes": "One program per row, two passes over 1024-wide chunks: the three sums of squares (x^2, "
                      "x^4, x^6) first, then the normalised combination; fp32 math; no autotune.",
    "deterministic": True,
}

EPS = 1e-6


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [M, N] of standard normals, weight [3] (fp32) and bias [1] (fp32)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["M"], s["N"], generator=g).to(getattr(torch, dtype or META["dtypes"][0]))
    weight = torch.tensor([0.3, 0.5, 0.8]) + 0.1 * torch.randn(3, generator=g)
    bias = 0.1 * torch.randn(1, generator=g)
    return x.to(device), weight.to(device), bias.to(device)


def reference(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    xf = x.float()

    def norm(u: torch.Tensor) -> torch.Tensor:
        return u * torch.rsqrt(u.pow(2).mean(dim=-1, keepdim=True) + EPS)

    y = weight[0] * norm(xf ** 3) + weight[1] * norm(xf ** 2) + weight[2] * norm(xf) + bias
    return y.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["M"] * s["N"]
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize + 16, "flops": 16 * n}
