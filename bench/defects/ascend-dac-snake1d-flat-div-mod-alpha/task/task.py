"""Snake activation of the Descript Audio Codec (DAC) decoder, channels-first [B, C, T].

DAC (descript-audio-codec, dac/nn/layers.py) puts a Snake1d before every convolution of its encoder and
decoder residual units, with one learned frequency alpha per channel:
    y[b, c, t] = x[b, c, t] + 1 / (alpha[c] + 1e-9) * sin(alpha[c] * x[b, c, t]) ** 2
alpha is stored as a [1, C, 1] parameter (initialised to ones, spread to roughly 0.2 .. 3 after training).
The large size is the last decoder block of the 44.1 kHz model (96 channels at the full sample rate) on a
batch of 8 one-second clips.
"""
import torch

META = {
    "name": "dac_snake1d",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 2, "C": 4, "T": 640},
        "ragged": {"B": 3, "C": 5, "T": 1001},
        "large": {"B": 8, "C": 96, "T": 44100},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over (row, time block) pairs of the "
                      "[B*C, T] view: alpha is one scalar load per block (row % C), the 8192-sample time "
                      "block is one contiguous load and store; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, C, T] (decoder activations), alpha [1, C, 1] (trained Snake frequencies)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["B"], s["C"], s["T"], generator=g) * 1.5
    alpha = 0.2 + 2.8 * torch.rand(1, s["C"], 1, generator=g)
    return x.to(dt).to(device), alpha.to(dt).to(device)


def reference(x: torch.Tensor, alpha: torch.Tensor) -> torch.Tensor:
    xd, ad = x.double(), alpha.double()
    return (xd + (ad + 1e-9).reciprocal() * torch.sin(ad * xd).pow(2)).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["C"] * s["T"]
    return {"bytes": 8 * n + 4 * s["C"], "flops": 6 * n}
