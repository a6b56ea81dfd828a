"""Qwen3-style per-head QK RMSNorm followed by rotary embedding, on queries [T, H, D] (neox layout)."""
import torch

META = {
    "name": "rope_qk_norm",
    "level": 2,
    "category": "rope",
    "dtypes": ["float16", "bfloat16", "float32"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2},
                  "bfloat16": {"atol": 3e-2, "rtol": 2e-2},
                  "float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"T": 16, "H": 4, "D": 64},
        "ragged": {"T": 1531, "H": 12, "D": 96},
        "large": {"T": 32768, "H": 32, "D": 128},
    },
    "baseline_notes": "One program per token covering all heads as [next_pow2(H), "
                      "next_pow2(D/2)] blocks for the two halves: per-head sum of squares in "
                      "fp32, scale by rsqrt and the norm weight, rotate with fp32 cos/sin, store "
                      "both halves; no autotune.",
    "deterministic": True,
}
EPS = 1e-6
BASE = 1_000_000.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q [T, H, D], the head-dim norm weight [D], and fp32 cos/sin [T, D/2] of each token's position."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    q = 2 * torch.randn(s["T"], s["H"], s["D"], generator=g)
    w = 1 + 0.1 * torch.randn(s["D"], generator=g)
    positions = torch.randint(0, 8192, (s["T"],), generator=g).double()
    inv_freq = 1.0 / BASE ** (torch.arange(0, s["D"], 2, dtype=torch.float64) / s["D"])
    angles = positions[:, None] * inv_freq[None, :]
    dt = getattr(torch, dtype or META["dtypes"][0])
    return (q.to(device=device, dtype=dt), w.to(device=device, dtype=dt),
            angles.cos().float().to(device), angles.sin().float().to(device))


def reference(q: torch.Tensor, w: torch.Tensor, cos: torch.Tensor,
              sin: torch.Tensor) -> torch.Tensor:
    qf = q.float()
    qn = qf * torch.rsqrt(qf.pow(2).mean(dim=-1, keepdim=True) + EPS) * w.float()
    half = q.shape[-1] // 2
    x1, x2 = qn[..., :half], qn[..., half:]
    c, s = cos[:, None, :], sin[:, None, :]
    return torch.cat([x1 * c - x2 * s, x2 * c + x1 * s], dim=-1).to(q.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    n = s["T"] * s["H"] * s["D"]
    return {"bytes": 2 * n * item + s["D"] * item + 4 * s["T"] * s["D"], "flops": 7 * n}
