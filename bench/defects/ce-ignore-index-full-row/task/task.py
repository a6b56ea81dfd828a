"""Per-token cross-entropy with ignore_index = -100 (reduction='none') on an SFT batch whose prompt tokens are ignored."""
import torch

META = {
    "name": "cross_entropy_ignore_index",
    "level": 2,
    "category": "reduction",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"T": 16, "V": 5000},
        "ragged": {"T": 301, "V": 32003},
        "large": {"T": 8192, "V": 32000},
    },
    "baseline_notes": "One program per token: online log-sum-exp over 4096-column chunks, the column count set to 0 for "
                      "ignored tokens so they read nothing; fp32 loss per token (0 if ignored); 8 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """logits [T, V] (normals * 2), labels [T] int64: each sequence of 64 tokens has its first 48
    (the prompt) set to -100, so 75% of the tokens are ignored."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    logits = (2.0 * torch.randn(s["T"], s["V"], generator=g)).to(getattr(torch, dtype or META["dtypes"][0]))
    labels = torch.randint(0, s["V"], (s["T"],), generator=g)
    labels[(torch.arange(s["T"]) % 64) < 48] = -100
    return logits.to(device), labels.to(device)


def reference(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.cross_entropy(logits.double(), labels, ignore_index=-100, reduction="none").float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["T"] * s["V"] // 4
    return {"bytes": n * getattr(torch, dtype or META["dtypes"][0]).itemsize + 12 * s["T"], "flops": 3 * n}
