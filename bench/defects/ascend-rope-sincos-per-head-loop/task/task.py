"""NeoX-style rotary embedding of q and k with the angles derived in the kernel from the token
positions: inv_freq_i = theta^(-2i/D), angle = pos * inv_freq, and each head's halves (x1, x2)
become (x1 cos - x2 sin, x2 cos + x1 sin). Outputs (q_rot, k_rot) in the input dtype."""
import torch

META = {
    "name": "rope_neox_qk_positions",
    "level": 1,
    "category": "rotary",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"T": 9, "HQ": 4, "HK": 2, "D": 64, "MAXPOS": 2048},
        "ragged": {"T": 45, "HQ": 7, "HK": 1, "D": 64, "MAXPOS": 2048},
        "large": {"T": 16384, "HQ": 28, "HK": 4, "D": 128, "MAXPOS": 32768},
    },
    "baseline_notes": "Grid of 40 vector cores over 32-token blocks; cos/sin of the [32, D/2] angle tile "
                      "computed once per block and reused for all q and k heads.",
    "deterministic": True,
}

THETA = 1000000.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q [T, HQ, D], k [T, HK, D] in dtype, positions [T] int32 (several packed sequences)."""
    s = META["sizes"][size]
    dt = getattr(torch, dtype or META["dtypes"][0])
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(s["T"], s["HQ"], s["D"], generator=g).to(dt).to(device)
    k = torch.randn(s["T"], s["HK"], s["D"], generator=g).to(dt).to(device)
    pos = torch.randint(0, s["MAXPOS"], (s["T"],), generator=g).to(torch.int32).to(device)
    return q, k, pos


def _rotate(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    half = x.shape[-1] // 2
    x1, x2 = x[..., :half].double(), x[..., half:].double()
    c, s = cos[:, None, :], sin[:, None, :]
    return torch.cat([x1 * c - x2 * s, x2 * c + x1 * s], dim=-1).to(x.dtype)


def reference(q: torch.Tensor, k: torch.Tensor, positions: torch.Tensor) -> tuple:
    d = q.shape[-1]
    inv_freq = THETA ** (-torch.arange(0, d, 2, dtype=torch.float64, device=q.device) / d)
    ang = positions.double()[:, None] * inv_freq[None, :]
    cos, sin = torch.cos(ang), torch.sin(ang)
    return _rotate(q, cos, sin), _rotate(k, cos, sin)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["T"] * (s["HQ"] + s["HK"]) * s["D"]
    return {"bytes": 2 * n * 2 + 4 * s["T"], "flops": 3 * n + 2 * s["T"] * s["D"]}
