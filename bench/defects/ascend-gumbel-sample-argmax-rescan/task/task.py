"""Random (Gumbel-max / exponential race) sampling of the vLLM v1 sampler: with q ~ Exp(1) drawn
per (request, token), the sampled token of each request is argmax_v probs[v] / q[v]. Output int64 [B]
(first index on ties, as torch.argmax)."""
import torch

META = {
    "name": "exponential_race_sample",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"B": 4, "V": 3000},
        "ragged": {"B": 7, "V": 10007},
        "large": {"B": 256, "V": 151936},
    },
    "baseline_notes": "One program per vector core, rows strided over the cores; each row is read once in "
                      "4,096-wide chunks carrying a per-lane running max of probs / q and its index, then one "
                      "max and one min-index reduction pick the first maximiser.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """probs [B, V] fp32 (softmax of temperature-scaled logits) and q [B, V] fp32 Exp(1) noise."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    logits = torch.randn(s["B"], s["V"], generator=g) * 3.0
    probs = torch.softmax(logits, dim=-1)
    u = torch.rand(s["B"], s["V"], generator=g).clamp_(min=1e-7, max=1.0 - 1e-7)
    q = -torch.log(u)
    return probs.to(device), q.to(device)


def reference(probs: torch.Tensor, q: torch.Tensor) -> torch.Tensor:
    return (probs / q).argmax(dim=-1)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 8 * s["B"] * s["V"] + 8 * s["B"], "flops": 2 * s["B"] * s["V"]}
