"""Rectified-flow training noising (SD3 / Wan2.1 flow-matching training step): per sample a sigma in (0, 1);
eps ~ N(0, 1) per latent element; x_t = (1 - sigma) * x0 + sigma * eps; velocity target = eps - x0.
Latents [B, C, T, H, W] fp32; outputs (x_t, target)."""
import math

import torch

META = {
    "name": "flow_match_add_noise",
    "level": 1,
    "category": "dropout",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 2, "C": 4, "T": 3, "H": 16, "W": 24},
        "ragged": {"B": 3, "C": 16, "T": 5, "H": 15, "W": 26},
        "large": {"B": 8, "C": 16, "T": 21, "H": 60, "W": 104},
    },
    "baseline_notes": "Grid = 40 vector cores looping over (sample, 4 x 1024-element) tiles; one tl.randn4x "
                      "call per tile gives the noise of four contiguous 1024-element sub-blocks; sigma loaded "
                      "once per tile; two stores per element.",
    "deterministic": False,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x0 [B, C, T, H, W] (VAE latents), sigma [B] (logit-normal timesteps, clipped to [0.02, 0.98]) and an
    integer RNG seed."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x0 = torch.randn(s["B"], s["C"], s["T"], s["H"], s["W"], generator=g).to(dt)
    sigma = torch.sigmoid(torch.randn(s["B"], generator=g)).clamp(0.02, 0.98).to(dt)
    return x0.to(device), sigma.to(device), 4321 + seed


def reference(x0: torch.Tensor, sigma: torch.Tensor, seed: int) -> tuple:
    """torch's own randn: same distribution, different random stream (see check)."""
    g = torch.Generator(device=x0.device).manual_seed(seed)
    eps = torch.randn(x0.shape, generator=g, device=x0.device, dtype=x0.dtype)
    s = sigma.view(-1, *([1] * (x0.dim() - 1)))
    return (1.0 - s) * x0 + s * eps, eps - x0


def check(inputs: tuple, output: tuple) -> str | None:
    """Both outputs imply the same eps, which is finite, mean 0, variance 1, half below 0, not repeated."""
    x0, sigma, _ = inputs
    if not isinstance(output, tuple) or len(output) != 2:
        return "expected two outputs (x_t, target)"
    xt, target = output
    for name, t in (("x_t", xt), ("target", target)):
        if t.shape != x0.shape or t.dtype != x0.dtype:
            return f"{name} is {t.dtype}{list(t.shape)}, expected {x0.dtype}{list(x0.shape)}"
    s = sigma.double().view(-1, *([1] * (x0.dim() - 1)))
    eps = target.double() + x0.double()
    if not bool(torch.isfinite(eps).all()):
        return "the noise is NaN or infinite somewhere"
    implied = (xt.double() - (1.0 - s) * x0.double()) / s
    if (implied - eps).abs().max().item() > 1e-3:
        return "x_t and target do not use the same noise (or sigma is applied to the wrong sample)"
    n = eps.numel()
    if abs(eps.mean().item()) > 6 / math.sqrt(n):
        return f"mean of the noise is {eps.mean().item():.4f}, not near 0"
    if abs(eps.var().item() - 1.0) > 6 * math.sqrt(2 / n):
        return f"variance of the noise is {eps.var().item():.4f}, not near 1"
    below = (eps < 0).double().mean().item()
    if abs(below - 0.5) > 6 * 0.5 / math.sqrt(n):
        return f"{below:.4f} of the noise lies below 0, not near half"
    flat = eps.flatten()
    if abs(flat[: n // 2].mean().item() - flat[n // 2:].mean().item()) > 6 * math.sqrt(4 / n):
        return "the two halves of the noise differ in mean (a repeated or missing stream)"
    per_sample = eps.reshape(eps.shape[0], -1)
    if eps.shape[0] > 1 and bool((per_sample[0] == per_sample[1]).all()):
        return "two samples got the same noise"
    return None


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["C"] * s["T"] * s["H"] * s["W"]
    return {"bytes": 3 * 4 * n + 4 * s["B"], "flops": 30 * n}
