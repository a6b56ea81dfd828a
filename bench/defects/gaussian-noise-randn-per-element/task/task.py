"""Diffusion forward noising (diffusers DDPMScheduler.add_noise): x_t = sqrt(a) * x0 + sqrt(1 - a) * eps, eps ~ N(0, 1) per element."""
import math

import torch

META = {
    "name": "add_gaussian_noise",
    "level": 1,
    "category": "dropout",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-5}},
    "sizes": {
        "small": {"n": 40000, "alpha_bar": 0.36},
        "ragged": {"n": 1000003, "alpha_bar": 0.5},
        "large": {"n": 268435456, "alpha_bar": 0.36},
    },
    "baseline_notes": "Flat elementwise kernel; each program draws tl.randn4x(seed, offs) once for 4 x 1024 "
                      "elements (four contiguous sub-blocks), x_t = sqrt(a) x0 + sqrt(1 - a) eps; 4 warps.",
    "deterministic": False,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x0 [n] (a flattened latent batch, normals), the cumulative alpha of the timestep, an integer RNG seed."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x0 = torch.randn(s["n"], generator=g).to(getattr(torch, dtype or META["dtypes"][0]))
    return x0.to(device), s["alpha_bar"], 1234 + seed


def reference(x0: torch.Tensor, alpha_bar: float, seed: int) -> torch.Tensor:
    """torch's own randn: same distribution, different random stream (see check)."""
    g = torch.Generator(device=x0.device).manual_seed(seed)
    eps = torch.randn(x0.shape, generator=g, device=x0.device, dtype=x0.dtype)
    return math.sqrt(alpha_bar) * x0 + math.sqrt(1.0 - alpha_bar) * eps


def check(inputs: tuple, output: torch.Tensor) -> str | None:
    """eps = (x_t - sqrt(a) x0) / sqrt(1 - a) is finite with mean 0, variance 1 and half below 0, within 6 sigma."""
    x0, alpha_bar, _ = inputs
    if output.shape != x0.shape or output.dtype != x0.dtype:
        return f"output is {output.dtype}{list(output.shape)}, expected {x0.dtype}{list(x0.shape)}"
    eps = (output.double() - math.sqrt(alpha_bar) * x0.double()) / math.sqrt(1.0 - alpha_bar)
    if not bool(torch.isfinite(eps).all()):
        return "the noise is NaN or infinite somewhere"
    n = eps.numel()
    if abs(eps.mean().item()) > 6 / math.sqrt(n):
        return f"mean of the noise is {eps.mean().item():.4f}, not near 0"
    if abs(eps.var().item() - 1.0) > 6 * math.sqrt(2 / n):
        return f"variance of the noise is {eps.var().item():.4f}, not near 1"
    below = (eps < 0).double().mean().item()
    if abs(below - 0.5) > 6 * 0.5 / math.sqrt(n):
        return f"{below:.4f} of the noise lies below 0, not near half"
    if abs(eps[: n // 2].mean().item() - eps[n // 2:].mean().item()) > 6 * math.sqrt(4 / n):
        return "the two halves of the noise differ in mean (a repeated or missing stream)"
    return None


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["n"]
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 20 * n}
