"""UNet Transformer2DModel input: hidden_states.permute(0, 2, 3, 1).reshape(B, H * W, C), NCHW feature map to channel-last tokens."""
import torch

META = {
    "name": "unet_nchw_to_tokens",
    "level": 1,
    "category": "memory",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"B": 2, "C": 40, "H": 8, "W": 8},
        "ragged": {"B": 3, "C": 72, "H": 5, "W": 7},
        "large": {"B": 8, "C": 640, "H": 64, "W": 64},
    },
    "baseline_notes": "3-D grid (sample, 64-token tile, 64-channel tile): each program loads a [64 channels, 64 tokens] "
                      "tile along the contiguous spatial axis, transposes it on chip and stores it along channels.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """GroupNorm output [B, C, H, W] of a UNet attention block (before proj_in)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["B"], s["C"], s["H"], s["W"], generator=g)
    return (x.to(dt).to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    B, C, H, W = x.shape
    return x.permute(0, 2, 3, 1).reshape(B, H * W, C).contiguous()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["C"] * s["H"] * s["W"]
    return {"bytes": 4 * n, "flops": 0}
