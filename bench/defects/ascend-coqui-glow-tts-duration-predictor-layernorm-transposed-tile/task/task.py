"""Glow-TTS / VITS duration predictor: ReLU + channel LayerNorm + frame mask between its two convolutions (Coqui TTS).

Coqui's DurationPredictor runs conv_1 -> relu -> norm_1 -> dropout -> conv_2(x * x_mask) -> relu -> norm_2 ...
on channels-first activations [B, C, T] (C = 256 filter channels, T = text tokens). The norm is Coqui's generic
channels-first LayerNorm (eps 1e-4): mean and variance over the channel axis of every (b, t) column,
    y[b, c, t] = ((r - mean_c r) * rsqrt(var_c r + 1e-4) * gamma[c] + beta[c]) * x_mask[b, 0, t],
    r = relu(conv_out[b, :, t]),
with the x * x_mask of the next conv's input folded in (dropout is the identity at inference).
"""
import torch

META = {
    "name": "duration_predictor_relu_layernorm",
    "level": 2,
    "category": "normalization",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "C": 16, "T": 40},
        "ragged": {"B": 3, "C": 24, "T": 77},
        "large": {"B": 64, "C": 256, "T": 300},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over (utterance, 32-token block) tiles; each "
                      "tile is [all channels, 32 tokens] with the tokens on the contiguous last axis; mean and "
                      "variance are reduced over the channel axis (axis 0) in fp32, then gamma/beta and the token "
                      "mask are applied and the tile stored in the same layout.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """conv_out [B, C, T] (conv_1 output with bias), x_mask [B, 1, T], gamma [C], beta [C]."""
    s = META["sizes"][size]
    b, c, t = s["B"], s["C"], s["T"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(b, c, t, generator=g) * 1.5 + 0.2
    lengths = torch.randint(max(1, t // 4), t + 1, (b,), generator=g)
    lengths[0] = t
    x_mask = (torch.arange(t)[None, :] < lengths[:, None]).float().unsqueeze(1)
    gamma = 1.0 + 0.1 * torch.randn(c, generator=g)
    beta = 0.1 * torch.randn(c, generator=g)
    return tuple(v.to(device=device, dtype=dt) for v in (x, x_mask, gamma, beta))


def reference(x: torch.Tensor, x_mask: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor) -> torch.Tensor:
    r = torch.relu(x.double())
    mean = r.mean(1, keepdim=True)
    var = ((r - mean) ** 2).mean(1, keepdim=True)
    y = (r - mean) * torch.rsqrt(var + 1e-4)
    y = y * gamma.double().view(1, -1, 1) + beta.double().view(1, -1, 1)
    return (y * x_mask.double()).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["C"] * s["T"]
    return {"bytes": 8 * n + 4 * s["B"] * s["T"] + 8 * s["C"], "flops": 9 * n}
