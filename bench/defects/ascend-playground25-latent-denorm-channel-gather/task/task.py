"""VAE latent de-normalisation before decode, as in diffusers StableDiffusionXLPipeline for Playground v2.5.

Playground v2.5 (SDXL architecture, EDM-trained) ships per-channel latents_mean / latents_std in its VAE
config; before vae.decode the pipeline computes latents * latents_std / scaling_factor + latents_mean
(scaling_factor 0.5) over the [B, 4, H/8, W/8] latent, channel c taking mean[c] and std[c].
"""
import torch

META = {
    "name": "playground25_latent_denorm",
    "level": 2,
    "category": "elementwise",
    "dtypes": ["float16", "bfloat16"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2},
                  "bfloat16": {"atol": 5e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 2, "C": 4, "H": 16, "W": 16},
        "ragged": {"B": 3, "C": 4, "H": 21, "W": 37},
        "large": {"B": 4, "C": 4, "H": 128, "W": 128},
    },
    "baseline_notes": "One launch of about one program per AI vector core (40), each looping over "
                      "(plane, 2,048-element chunk) tiles of the [B*C, H*W] latent: the channel's mean and "
                      "std are two scalar loads per tile, the tile itself one contiguous load and store; fp32 "
                      "math, store in the latent dtype.",
    "deterministic": True,
}
LATENTS_MEAN = [-1.6574, 1.886, -1.383, 2.5155]
LATENTS_STD = [8.4927, 5.9022, 6.5498, 5.2299]
SCALING_FACTOR = 0.5


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """latents [B, 4, H, W] (the denoised, normalised latent), latents_mean [4], latents_std [4] fp32, scaling_factor."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    latents = torch.randn(s["B"], s["C"], s["H"], s["W"], generator=g) * 0.8 + 0.1
    mean = torch.tensor(LATENTS_MEAN, dtype=torch.float32)
    std = torch.tensor(LATENTS_STD, dtype=torch.float32)
    return latents.to(device=device, dtype=dt), mean.to(device), std.to(device), SCALING_FACTOR


def reference(latents, latents_mean, latents_std, scaling_factor):
    C = latents.shape[1]
    mean = latents_mean.double().view(1, C, 1, 1)
    std = latents_std.double().view(1, C, 1, 1)
    return (latents.double() * std / scaling_factor + mean).to(latents.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["C"] * s["H"] * s["W"]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 2 * n * item + 8 * s["C"], "flops": 2 * n}
