"""RMSNorm over the last dimension with a weight, as in LLaMA (eps 1e-6, math in fp32)."""
import torch

META = {
    "name": "rmsnorm",
    "level": 1,
    "category": "norm",
    "dtypes": ["float16", "bfloat16", "float32"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2},
                  "bfloat16": {"atol": 3e-2, "rtol": 2e-2},
                  "float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"M": 64, "N": 128},
        "ragged": {"M": 1000, "N": 1531},
        "large": {"M": 16384, "N": 4096},
    },
    "baseline_notes": "One program per row, BLOCK = next_power_of_2(N), sum of squares in fp32 "
                      "from the row held in registers, then scale by rsqrt and weight; no autotune.",
    "deterministic": True,
}
EPS = 1e-6


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Hidden states x [M, N] and a weight [N] near 1."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["M"], s["N"], generator=g)
    w = 1 + 0.1 * torch.randn(s["N"], generator=g)
    dt = getattr(torch, dtype or META["dtypes"][0])
    return x.to(device=device, dtype=dt), w.to(device=device, dtype=dt)


def reference(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    xf = x.float()
    y = xf * torch.rsqrt(xf.pow(2).mean(dim=-1, keepdim=True) + EPS)
    return (y * w.float()).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": (2 * s["M"] * s["N"] + s["N"]) * item, "flops": 4 * s["M"] * s["N"]}
