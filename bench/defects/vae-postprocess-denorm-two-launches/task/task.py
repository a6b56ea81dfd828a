"""VAE decoder output to 8-bit images (diffusers VaeImageProcessor.postprocess: (x / 2 + 0.5).clamp(0, 1), NCHW -> NHWC, * 255 rounded to uint8)."""
import torch

META = {
    "name": "vae_postprocess_uint8",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 1.0, "rtol": 0.0}},
    "sizes": {
        "small": {"B": 2, "H": 40, "W": 56},
        "ragged": {"B": 3, "H": 37, "W": 61},
        "large": {"B": 8, "H": 1024, "W": 1024},
    },
    "baseline_notes": "One kernel over the uint8 NHWC output (1,024 bytes per program): each program gathers its "
                      "fp16 pixels from the three planes, denormalises, clamps, scales, rounds and stores bytes.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """decoded images [B, 3, H, W] from the VAE decoder, roughly in [-1, 1] with some overshoot."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.tanh(torch.randn(s["B"], 3, s["H"], s["W"], generator=g)) * 1.1
    return (x.to(dt).to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    img = (x.float() / 2 + 0.5).clamp(0, 1)
    return (img * 255).round().to(torch.uint8).permute(0, 2, 3, 1).contiguous()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * 3 * s["H"] * s["W"]
    return {"bytes": 3 * n, "flops": 5 * n}
