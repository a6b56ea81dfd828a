"""Snake activation of a neural vocoder (CosyVoice HiFTGenerator ResBlock / BigVGAN activations.Snake).

y = x + 1 / (alpha + 1e-9) * sin(alpha * x)^2 with one learned alpha per channel
(alpha_logscale=False), applied to the [B, C, T] waveform-rate feature map of the last
upsampling stage.
"""
import torch

META = {
    "name": "hift_snake_activation",
    "level": 2,
    "category": "activation",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 2, "C": 6, "T": 200},
        "ragged": {"B": 3, "C": 5, "T": 1333},
        "large": {"B": 4, "C": 128, "T": 83200},
    },
    "baseline_notes": "Persistent grid of 40 programs (Atlas A2 vector cores) looping over [BLOCK_C=8, BLOCK_T=1024] "
                      "tiles of the [B, C, T] map (time contiguous, last), alpha loaded once per tile, fp32 math; "
                      "no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, C, T] (last upsampling stage, time contiguous), alpha [C] (trained per-channel frequencies)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["B"], s["C"], s["T"], generator=g) * 0.5
    alpha = torch.rand(s["C"], generator=g) * 1.5 + 0.25
    return x.to(dt).to(device), alpha.to(dt).to(device)


def reference(x: torch.Tensor, alpha: torch.Tensor) -> torch.Tensor:
    a = alpha.float()[None, :, None]
    xf = x.float()
    return (xf + (1.0 / (a + 1e-9)) * torch.sin(xf * a).pow(2)).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["C"] * s["T"]
    return {"bytes": 8 * n + 4 * s["C"], "flops": 6 * n}
