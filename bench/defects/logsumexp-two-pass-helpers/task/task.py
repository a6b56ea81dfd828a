"""Row log-sum-exp of fp32 logits over a large vocabulary (torch.logsumexp(logits, dim=-1)), the normaliser of a sampler or a loss."""
import torch

META = {
    "name": "vocab_logsumexp",
    "level": 1,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-5}},
    "sizes": {
        "small": {"M": 8, "N": 5000},
        "ragged": {"M": 301, "N": 32001},
        "large": {"M": 2048, "N": 256000},
    },
    "baseline_notes": "One program per row, a 4096-column loop carrying the running max and the rescaled running "
                      "sum of exp (online log-sum-exp): each logit read once; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """logits [M, N] (scaled normals with a few large entries per row, as a trained LM head gives)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = 3.0 * torch.randn(s["M"], s["N"], generator=g)
    hot = torch.randint(0, s["N"], (s["M"], 4), generator=g)
    x.scatter_(1, hot, 25.0)
    return (x.to(getattr(torch, dtype or META["dtypes"][0])).to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.logsumexp(x.double(), dim=-1).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": (s["M"] * s["N"] + s["M"]) * item, "flops": 3 * s["M"] * s["N"]}
