"""Rotary position embedding (neox / rotate_half layout, as in LLaMA in HF transformers) on [B, S, H, D]."""
import torch

META = {
    "name": "rope",
    "level": 2,
    "category": "rope",
    "dtypes": ["float16", "bfloat16", "float32"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2},
                  "bfloat16": {"atol": 2e-2, "rtol": 2e-2},
                  "float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 1, "S": 16, "H": 4, "D": 64},
        "ragged": {"B": 3, "S": 1000, "H": 12, "D": 96},
        "large": {"B": 4, "S": 4096, "H": 32, "D": 128},
    },
    "baseline_notes": "One program per token (b, s) covering all heads as a [next_pow2(H), "
                      "next_pow2(D/2)] block: loads both halves, cos and sin (fp32), rotates in "
                      "fp32 and stores both halves; no autotune.",
    "deterministic": True,
}
BASE = 10000.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, S, H, D] and the fp32 cos/sin tables [S, D/2] for positions 0..S-1."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["B"], s["S"], s["H"], s["D"], generator=g)
    inv_freq = 1.0 / BASE ** (torch.arange(0, s["D"], 2, dtype=torch.float64) / s["D"])
    angles = torch.arange(s["S"], dtype=torch.float64)[:, None] * inv_freq[None, :]
    dt = getattr(torch, dtype or META["dtypes"][0])
    return (x.to(device=device, dtype=dt), angles.cos().float().to(device),
            angles.sin().float().to(device))


def reference(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    half = x.shape[-1] // 2
    x1, x2 = x.float()[..., :half], x.float()[..., half:]
    c, s = cos[None, :, None, :], sin[None, :, None, :]
    return torch.cat([x1 * c - x2 * s, x2 * c + x1 * s], dim=-1).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    n = s["B"] * s["S"] * s["H"] * s["D"]
    return {"bytes": 2 * n * item + 4 * s["S"] * s["D"], "flops": 3 * n}
