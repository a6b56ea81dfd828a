"""Guidance rescale of the guided prediction (diffusers rescale_noise_cfg, as called by the LTX-2 pipeline).

Per sample b: factor = phi * std(text[b]) / std(cfg[b]) + (1 - phi); out[b] = cfg[b] * factor, with
the unbiased std over every non-batch element (LTX-2's packed video latents [B, F*H*W, 128], fp32).
"""
import torch

META = {
    "name": "ltx2_guidance_rescale",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "S": 96, "C": 128},
        "ragged": {"B": 3, "S": 1021, "C": 128},
        "large": {"B": 1, "S": 32640, "C": 128},
    },
    "baseline_notes": "Two launches over a (B, max(1, 40 // B)) grid. The first: each program sums x, x^2 "
                      "of both tensors over its strided share of the sample's 2048-element chunks and "
                      "writes four fp32 partials; the second: each program adds up its sample's partials, "
                      "forms the factor and rescales its share of cfg. No autotune.",
    "deterministic": True,
}
RESCALE = 0.7


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """noise_cfg [B, S, C] (the guided x0 prediction), noise_pred_text [B, S, C], guidance_rescale."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    text = torch.randn(s["B"], s["S"], s["C"], generator=g) * 0.9 + 0.05
    uncond = text + 0.3 * torch.randn(s["B"], s["S"], s["C"], generator=g)
    cfg = uncond + 4.0 * (text - uncond)
    return cfg.to(device=device, dtype=dt), text.to(device=device, dtype=dt), RESCALE


def reference(noise_cfg: torch.Tensor, noise_pred_text: torch.Tensor, guidance_rescale: float) -> torch.Tensor:
    dims = list(range(1, noise_pred_text.ndim))
    std_text = noise_pred_text.std(dim=dims, keepdim=True)
    std_cfg = noise_cfg.std(dim=dims, keepdim=True)
    rescaled = noise_cfg * (std_text / std_cfg)
    return guidance_rescale * rescaled + (1 - guidance_rescale) * noise_cfg


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["S"] * s["C"]
    return {"bytes": 3 * 4 * n, "flops": 6 * n}
