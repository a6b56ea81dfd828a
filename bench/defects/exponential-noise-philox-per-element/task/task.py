"""Exponential-race sampling noise (vLLM sampler random_sample: probs.div_(q) with q = torch.empty_like(probs).exponential_()): out = probs / q, q ~ Exp(1) per element."""
import math

import torch

META = {
    "name": "exponential_race_noise",
    "level": 2,
    "category": "dropout",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 4, "V": 5000},
        "ragged": {"B": 37, "V": 50257},
        "large": {"B": 256, "V": 128256},
    },
    "baseline_notes": "Flat elementwise kernel; each program draws tl.rand4x(seed, offs) once for 4 x 1024 "
                      "elements (four contiguous sub-blocks), q = -log(1 - u), out = probs / q; no autotune.",
    "deterministic": False,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Probabilities [B, V] (a softmax of normals) and an integer RNG seed."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    probs = torch.softmax(torch.randn(s["B"], s["V"], generator=g), dim=-1)
    return probs.to(device=device, dtype=getattr(torch, dtype or META["dtypes"][0])), 4321 + seed


def reference(probs: torch.Tensor, seed: int) -> torch.Tensor:
    """torch's own exponential_: same distribution, different random stream (see check)."""
    g = torch.Generator(device=probs.device).manual_seed(seed)
    return probs / torch.empty_like(probs).exponential_(generator=g)


def check(inputs: tuple, output: torch.Tensor) -> str | None:
    """q = probs / out is non-negative (a zero draw gives q = 0, out = inf) with the Exp(1) mean and median, within 6 sigma."""
    probs, _ = inputs
    if output.shape != probs.shape or output.dtype != probs.dtype:
        return f"output is {output.dtype}{list(output.shape)}, expected {probs.dtype}{list(probs.shape)}"
    q = probs.double() / output.double()
    if not bool(torch.isfinite(q).all()) or not bool((q >= 0).all()):
        return "q = probs / out is negative, NaN or infinite somewhere"
    n = q.numel()
    mean = q.mean().item()
    if abs(mean - 1.0) > 6 / math.sqrt(n):
        return f"mean of q is {mean:.4f}, not near 1"
    below = (q < math.log(2.0)).double().mean().item()
    if abs(below - 0.5) > 6 * 0.5 / math.sqrt(n):
        return f"{below:.4f} of q lie below ln 2, not near half"
    return None


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["V"]
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 3 * n}
