"""Top-p (nucleus) mask of the sampler (vLLM apply_top_k_top_p, top-p branch) on logits already sorted in
descending order per request: with p = softmax(row), token j is kept when the probability mass of the tokens
ranked before it is below top_p[row] (so the top token is always kept); dropped logits become -inf.
Output fp32 [B, V], in sorted order (the sampler scatters it back by the sort indices)."""
import torch

META = {
    "name": "top_p_mask_sorted_logits",
    "level": 2,
    "category": "scan",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"B": 3, "V": 9000},
        "ragged": {"B": 5, "V": 12345},
        "large": {"B": 64, "V": 151936},
    },
    "baseline_notes": "Two launches on grids of the 40 vector cores: per row the softmax denominator (the row max "
                      "is the first sorted logit), then per row a walk over 4,096-wide tiles carrying the "
                      "running probability mass, an in-tile cumsum giving each token's exclusive prefix.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """logits [B, V] sorted descending per row (a few confident requests, most spread out) and top_p [B]."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    B, V = s["B"], s["V"]
    temp = torch.rand(B, 1, generator=g) * 2.0 + 1.0
    logits = torch.randn(B, V, generator=g) * temp
    logits[:, :4] += torch.rand(B, 4, generator=g) * 12.0
    logits = logits.sort(dim=-1, descending=True).values
    top_p = torch.rand(B, generator=g) * 0.35 + 0.6
    return logits.to(dt).to(device), top_p.to(dt).to(device)


def reference(logits: torch.Tensor, top_p: torch.Tensor) -> torch.Tensor:
    probs = torch.softmax(logits.double(), dim=-1)
    before = torch.cumsum(probs, dim=-1) - probs
    keep = before < top_p.double()[:, None]
    return torch.where(keep, logits, torch.full_like(logits, float("-inf")))


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["B"] * s["V"] * 3 + 4 * s["B"], "flops": 6 * s["B"] * s["V"]}
