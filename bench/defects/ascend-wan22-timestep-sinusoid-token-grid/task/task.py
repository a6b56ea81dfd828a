"""Sinusoidal timestep embedding per token (Wan2.2 TI2V sinusoidal_embedding_1d, freq_dim 256).

Wan2.2 TI2V-5B gives every video token its own timestep (the tokens of the conditioning first
latent frame get t = 0) and embeds all of them before the time MLP:
out[n] = cat(cos(t[n] * f), sin(t[n] * f)) with f[j] = 10000 ** (-j / (dim / 2)), j < dim / 2.
Wan computes it in float64 and casts the result to float32; the kernels compute it in float32.
"""
import torch

META = {
    "name": "wan22_timestep_sinusoidal_embedding",
    "level": 1,
    "category": "embedding",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 300, "D": 256, "first": 40},
        "ragged": {"N": 1013, "D": 256, "first": 110},
        "large": {"N": 27280, "D": 256, "first": 880},
    },
    "baseline_notes": "Grid = min(40 vector cores, cdiv(N, 32)) programs; each computes the 128 "
                      "frequencies once and loops over 32-token tiles: cos and sin of the [32, 128] "
                      "argument tile stored into the two halves of the rows; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """t [N] per-token timesteps in [0, 1000) (the first latent frame's tokens are 0), and dim."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    t = torch.rand(s["N"], generator=g) * 1000.0
    t[: s["first"]] = 0.0
    return t.to(dt).to(device), s["D"]


def reference(t: torch.Tensor, dim: int) -> torch.Tensor:
    half = dim // 2
    pos = t.double()
    freqs = torch.pow(10000.0, -torch.arange(half, dtype=torch.float64, device=t.device) / half)
    arg = torch.outer(pos, freqs)
    return torch.cat([torch.cos(arg), torch.sin(arg)], dim=1).to(t.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["N"] + 4 * s["N"] * s["D"], "flops": 3 * s["N"] * s["D"]}
