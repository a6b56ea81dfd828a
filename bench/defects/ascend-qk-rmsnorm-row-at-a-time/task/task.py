"""Per-head RMSNorm of the attention queries (Qwen3 q_norm / k_norm): every head_dim-wide row of
q viewed as [T, H, D] is scaled by rsqrt(mean(x^2) + eps) and the shared weight [D]."""
import torch

META = {
    "name": "qk_head_rmsnorm",
    "level": 1,
    "category": "norm",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"T": 6, "H": 4, "D": 128},
        "ragged": {"T": 37, "H": 5, "D": 128},
        "large": {"T": 8192, "H": 32, "D": 128},
    },
    "baseline_notes": "Grid of 40 vector cores; each iteration normalises a [64, 128] tile of rows "
                      "(16 KB of bf16 in, 32 KB of fp32 working set in the 192 KB UB).",
    "deterministic": True,
}

EPS = 1e-6


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q [T, H, D] and weight [D], both in dtype (bf16)."""
    s = META["sizes"][size]
    dt = getattr(torch, dtype or META["dtypes"][0])
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(s["T"], s["H"], s["D"], generator=g).to(dt).to(device)
    w = (1.0 + 0.1 * torch.randn(s["D"], generator=g)).to(dt).to(device)
    return q, w


def reference(q: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    x = q.double()
    rstd = torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + EPS)
    return (x * rstd * w.double()).to(q.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["T"] * s["H"] * s["D"]
    return {"bytes": 2 * n * 2 + 2 * s["D"], "flops": 4 * n}
