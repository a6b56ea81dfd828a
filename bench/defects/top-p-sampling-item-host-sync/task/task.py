"""Top-k / top-p sampling on sorted probabilities: per request keep the first min(top_k, top-p cutoff)
tokens, then draw one token by inverse CDF with that request's uniform."""
import torch

META = {
    "name": "top_k_top_p_sampling",
    "level": 2,
    "category": "sampling",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"B": 5, "V": 3000},
        "ragged": {"B": 37, "V": 5003},
        "large": {"B": 256, "V": 128256},
    },
    "baseline_notes": "Two launches over the requests and no host reads: a cutoff kernel (count kept and kept "
                      "mass per request, 128-wide chunks up to top_k) and a sampling kernel that walks its "
                      "request's kept prefix in 128-wide chunks, its length read on the device.",
    "deterministic": True,
}


def _kept(probs: torch.Tensor, top_k: torch.Tensor, top_p: torch.Tensor) -> torch.Tensor:
    cols = torch.arange(probs.shape[1], device=probs.device)
    before = torch.cumsum(probs, dim=-1) - probs
    return (cols[None, :] < top_k[:, None].long()) & (before < top_p[:, None].double())


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """probs [B, V] sorted descending (softmax of a decode step's logits), token_ids [B, V] int64 (the
    sort permutation), top_k [B] int32, top_p [B] float32, u [B] float32 (one uniform per request).

    top_p and u are placed mid-way between cumulative sums so the float32 kernels and the float64
    reference keep and draw the same token."""
    s = META["sizes"][size]
    B, V = s["B"], s["V"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # Zipf-like next-token distributions, sharper or flatter per request
    rank = torch.arange(1, V + 1, dtype=torch.float64)
    alpha = 1.1 + 0.9 * torch.rand(B, 1, generator=g, dtype=torch.float64)
    w = rank[None, :] ** -alpha * torch.exp(0.1 * torch.randn(B, V, generator=g, dtype=torch.float64))
    probs, order = torch.sort((w / w.sum(-1, keepdim=True)).to(dt).double(), dim=-1, descending=True)
    token_ids = torch.gather(torch.stack([torch.randperm(V, generator=g) for _ in range(B)]), 1, order)
    top_k = torch.randint(16, min(V, 256) + 1, (B,), generator=g, dtype=torch.int32)
    nominal = 0.6 + 0.38 * torch.rand(B, generator=g, dtype=torch.float64)
    before = torch.cumsum(probs, -1) - probs
    c = (before < nominal[:, None]).sum(-1).clamp(min=1) - 1          # last index kept by nominal top_p
    top_p = before.gather(1, c[:, None])[:, 0] + 0.5 * probs.gather(1, c[:, None])[:, 0]
    keep = _kept(probs, top_k, top_p.to(torch.float32))
    kept = probs * keep
    mass = kept.sum(-1)
    n = keep.sum(-1)
    j = (torch.rand(B, generator=g, dtype=torch.float64) * n).long()   # token drawn, as a kept position
    cum = torch.cumsum(kept, -1)
    mid = cum.gather(1, j[:, None])[:, 0] - 0.5 * kept.gather(1, j[:, None])[:, 0]
    u = mid / mass
    return (probs.to(dt).to(device), token_ids.to(device), top_k.to(device), top_p.to(torch.float32).to(device),
            u.to(torch.float32).to(device))


def reference(probs: torch.Tensor, token_ids: torch.Tensor, top_k: torch.Tensor, top_p: torch.Tensor,
              u: torch.Tensor) -> torch.Tensor:
    p = probs.double()
    keep = _kept(p, top_k, top_p)
    kept = p * keep
    n = keep.sum(-1)
    target = u.double() * kept.sum(-1)
    j = torch.minimum((torch.cumsum(kept, -1) <= target[:, None]).sum(-1), n - 1)
    return token_ids.gather(1, j[:, None])[:, 0]


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    kept = s["B"] * min(s["V"], 256)   # at most top_k <= 256 sorted entries per request are touched
    return {"bytes": 2 * 4 * kept + 8 * s["B"] + 16 * s["B"], "flops": 6 * kept}
