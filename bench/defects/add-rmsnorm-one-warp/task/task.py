"""Residual add then RMSNorm, returning (normed, new residual), as vLLM's fused_add_rms_norm, at LLaMA-3.1-405B's hidden size 16384."""
import torch

META = {
    "name": "add_rmsnorm_wide",
    "level": 2,
    "category": "norm",
    "dtypes": ["float16", "bfloat16", "float32"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2},
                  "bfloat16": {"atol": 3e-2, "rtol": 2e-2},
                  "float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"M": 64, "N": 128},
        "ragged": {"M": 1000, "N": 1531},
        "large": {"M": 4096, "N": 16384},
    },
    "baseline_notes": "One program per row, BLOCK = next_power_of_2(N): adds x and residual, "
                      "stores the sum in the input dtype, then RMS-normalises the rounded sum in "
                      "fp32 from registers; no autotune.",
    "deterministic": True,
}
EPS = 1e-6


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Block output x [M, N], the running residual [M, N], and the norm weight [N]."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["M"], s["N"], generator=g)
    residual = 2 * torch.randn(s["M"], s["N"], generator=g)
    w = 1 + 0.1 * torch.randn(s["N"], generator=g)
    dt = getattr(torch, dtype or META["dtypes"][0])
    return tuple(t.to(device=device, dtype=dt) for t in (x, residual, w))


def reference(x: torch.Tensor, residual: torch.Tensor,
              w: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    h = (x.float() + residual.float()).to(x.dtype)
    hf = h.float()
    y = hf * torch.rsqrt(hf.pow(2).mean(dim=-1, keepdim=True) + EPS) * w.float()
    return y.to(x.dtype), h


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": (4 * s["M"] * s["N"] + s["N"]) * item, "flops": 5 * s["M"] * s["N"]}
