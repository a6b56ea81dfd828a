"""Top-p (nucleus) filter on probabilities already sorted in descending order (vLLM sampler apply_top_p): keep p_i while the mass before it is below top_p, zero the rest."""
import torch

META = {
    "name": "top_p_sorted_filter",
    "level": 2,
    "category": "scan",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"B": 3, "V": 5000},
        "ragged": {"B": 37, "V": 50257},
        "large": {"B": 128, "V": 128256},
    },
    "baseline_notes": "One program per row walking the row in 1024-wide chunks with a running prefix carried "
                      "across chunks (exclusive = prefix + tl.cumsum(p) - p); no autotune.",
    "deterministic": True,
}

SCALE = 2 ** 20  # probabilities are multiples of 2^-20 so that every partial sum is exact in fp32


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Sorted (descending) probabilities [B, V], each a multiple of 2^-20 summing to <= 1, and top_p [B]."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    logits = torch.randn(s["B"], s["V"], generator=g, dtype=torch.float64) * 2.0
    w = torch.softmax(logits, dim=-1)
    counts = torch.floor(w * SCALE).sort(dim=-1, descending=True).values
    probs = (counts / SCALE).float()
    top_p = ((torch.randint(1, SCALE, (s["B"],), generator=g).double() + 0.5) / SCALE).float()
    return probs.to(device), top_p.to(device)


def reference(probs: torch.Tensor, top_p: torch.Tensor) -> torch.Tensor:
    before = torch.cumsum(probs.double(), dim=-1) - probs.double()
    return torch.where(before < top_p.double()[:, None], probs, torch.zeros_like(probs))


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["V"]
    return {"bytes": 8 * n + 4 * s["B"], "flops": 2 * n}
