"""Dynamic Tanh (DyT, the normalisation-free replacement for LayerNorm; Liger-Kernel dyt forward): y = gamma * tanh(alpha * x) + beta over rows, alpha a learned scalar."""
import torch

META = {
    "name": "dyt",
    "level": 2,
    "category": "norm",
    "dtypes": ["bfloat16", "float16", "float32"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}, "float16": {"atol": 5e-3, "rtol": 5e-3},
                  "float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"M": 7, "N": 1000},
        "ragged": {"M": 1001, "N": 5003},
        "large": {"M": 16384, "N": 8192},
    },
    "baseline_notes": "One program per row, BLOCK = next_power_of_2(N), num_warps = BLOCK // 1024 clamped to "
                      "4..16; fp32 math, tanh(z) = 2 sigmoid(2 z) - 1; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [M, N], alpha [1] (fp32), gamma and beta [N] (in the input dtype)."""
    s = META["sizes"][size]
    dt = getattr(torch, dtype or META["dtypes"][0])
    g = torch.Generator().manual_seed(seed)
    x = (torch.randn(s["M"], s["N"], generator=g) * 2.0).to(dt)
    alpha = torch.tensor([0.5]) + 0.1 * torch.randn(1, generator=g)
    gamma = (1.0 + 0.1 * torch.randn(s["N"], generator=g)).to(dt)
    beta = (0.1 * torch.randn(s["N"], generator=g)).to(dt)
    return x.to(device), alpha.to(device), gamma.to(device), beta.to(device)


def reference(x: torch.Tensor, alpha: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor) -> torch.Tensor:
    return (gamma.float() * torch.tanh(alpha * x.float()) + beta.float()).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["M"] * s["N"]
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 6 * n}
