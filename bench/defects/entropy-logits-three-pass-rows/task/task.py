"""Per-token entropy of the policy distribution from logits (H = logsumexp(x) - sum(softmax(x) * x)), fp32, as RL fine-tuning logs and regularises it."""
import torch

META = {
    "name": "logits_entropy",
    "level": 2,
    "category": "softmax",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 2e-3, "rtol": 1e-3}, "float16": {"atol": 2e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"T": 6, "V": 5000},
        "ragged": {"T": 301, "V": 32001},
        "large": {"T": 2048, "V": 151936},
    },
    "baseline_notes": "One program per token row, one pass in 4096-column blocks: per-lane running max, sum of "
                      "exp(x - max) and sum of exp(x - max) * x rescaled when the max grows, merged at the end; 8 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """logits [T, V] of a language-model head (Qwen2.5 vocabulary at large), peaked rows as a trained policy has."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = 2.0 * torch.randn(s["T"], s["V"], generator=g)
    top = torch.randint(0, s["V"], (s["T"], 4), generator=g)
    x.scatter_add_(1, top, 12.0 * torch.rand(s["T"], 4, generator=g))
    return (x.to(getattr(torch, dtype or META["dtypes"][0])).to(device),)


def reference(logits: torch.Tensor) -> torch.Tensor:
    x = logits.float()
    return torch.logsumexp(x, dim=-1) - (torch.softmax(x, dim=-1) * x).sum(dim=-1)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["T"] * s["V"]
    return {"bytes": n * getattr(torch, dtype or META["dtypes"][0]).itemsize + 4 * s["T"], "flops": 6 * n}
