"""Qwen2-VL multimodal rotary (M-RoPE, Liger-Kernel qwen2vl_mrope / vLLM MRotaryEmbedding, neox style): frequency
band j of the half head takes its angle from the temporal, height or width position (mrope_section = [16, 24, 24])."""
import torch

META = {
    "name": "qwen2vl_mrope",
    "level": 2,
    "category": "elementwise",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 3e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"T": 12, "HQ": 4, "HK": 2, "D": 32, "S0": 4, "S1": 6},
        "ragged": {"T": 1001, "HQ": 12, "HK": 2, "D": 128, "S0": 16, "S1": 24},
        "large": {"T": 8192, "HQ": 28, "HK": 4, "D": 128, "S0": 16, "S1": 24},
    },
    "baseline_notes": "One program per token: cos/sin of the 64 bands computed once from the three positions, then a "
                      "loop over the 32 q and k heads.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """positions [3, T] (t, h, w) int64, q [T, HQ*D], k [T, HK*D], inv_freq [D/2] fp32, sections (S0, S1)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    T, D = s["T"], s["D"]
    positions = torch.randint(0, 4096, (3, T), generator=g)
    q = torch.randn(T, s["HQ"] * D, generator=g).to(dt)
    k = torch.randn(T, s["HK"] * D, generator=g).to(dt)
    inv_freq = (1.0 / (1000000.0 ** (torch.arange(0, D, 2, dtype=torch.float64) / D))).float()
    return positions.to(device), q.to(device), k.to(device), inv_freq.to(device), s["S0"], s["S1"]


def _rotate(x, cos, sin, d):
    t = x.shape[0]
    xh = x.double().view(t, -1, d)
    x1, x2 = xh[..., : d // 2], xh[..., d // 2:]
    c, s = cos[:, None, :], sin[:, None, :]
    return torch.cat([x1 * c - x2 * s, x2 * c + x1 * s], dim=-1).view(t, -1).to(x.dtype)


def reference(positions, q, k, inv_freq, s0, s1) -> tuple:
    half = inv_freq.shape[0]
    j = torch.arange(half, device=inv_freq.device)
    band = torch.where(j < s0, 0, torch.where(j < s0 + s1, 1, 2))
    pos = positions.double()[band, :].t()                      # [T, half]
    angle = pos * inv_freq.double()[None, :]
    return _rotate(q, angle.cos(), angle.sin(), 2 * half), _rotate(k, angle.cos(), angle.sin(), 2 * half)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["T"] * (s["HQ"] + s["HK"]) * s["D"]
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 3 * n}
