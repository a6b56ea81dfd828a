"""Joint top-k / top-p / min-p sampling from descending-sorted probabilities (SGLang
top_k_top_p_min_p_sampling_from_probs_torch after probs.sort(descending=True)): a sorted position j is kept when
j < top_k (top_k <= 0: no limit), the mass before it is <= top_p and p_j >= min_p * p_0; the kept probabilities
are renormalised and one token is drawn by inverse CDF with the given uniform u. Returns the token ids, int64 [B]."""
import torch

META = {
    "name": "sorted_topk_topp_minp_sample",
    "level": 2,
    "category": "sampling",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"B": 6, "V": 700},
        "ragged": {"B": 7, "V": 2999},
        "large": {"B": 512, "V": 151936},
    },
    "baseline_notes": "One program per request: two passes (kept mass, then the inverse-CDF position) over "
                      "1,024-wide blocks with a carried tl.cumsum prefix, the block loop bounded by the request's "
                      "top_k (the kept set is a prefix of the sorted row); one gather of the token id.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """probs_sort [B, V] fp32 (softmax rows sorted descending), probs_idx [B, V] int64, top_k [B] int32,
    top_p [B] fp32, min_p [B] fp32, u [B] fp32 uniform in [0, 1)."""
    s = META["sizes"][size]
    B, V = s["B"], s["V"]
    g = torch.Generator().manual_seed(seed)
    temp = torch.rand(B, 1, generator=g) * 3.0 + 1.0
    logits = torch.randn(B, V, generator=g) * temp
    probs = torch.softmax(logits.to(device), dim=-1)
    probs_sort, probs_idx = probs.sort(dim=-1, descending=True, stable=True)
    if size == "large":
        top_k = torch.tensor([20, 40, 50, 64], dtype=torch.int32)[torch.randint(0, 4, (B,), generator=g)]
    else:
        top_k = torch.tensor([0, 1, 5, 50, -1, V + 5], dtype=torch.int32)[torch.randint(0, 6, (B,), generator=g)]
        top_k[0] = 0
    top_p = torch.tensor([0.8, 0.9, 0.95, 1.0])[torch.randint(0, 4, (B,), generator=g)]
    min_p = torch.tensor([0.0, 0.0, 0.05, 0.1])[torch.randint(0, 4, (B,), generator=g)]
    u = torch.rand(B, generator=g)
    return (probs_sort.float().contiguous(), probs_idx.contiguous(), top_k.to(device), top_p.to(device),
            min_p.to(device), u.to(device))


def reference(probs_sort, probs_idx, top_k, top_p, min_p, u):
    B, V = probs_sort.shape
    p = probs_sort.double()
    rank = torch.arange(V, device=p.device)[None, :]
    k_lim = torch.where((top_k > 0) & (top_k < V), top_k, V).long()[:, None]
    before = torch.cumsum(p, dim=-1) - p
    keep = (rank < k_lim) & (before <= top_p.double()[:, None]) & (p >= min_p.double()[:, None] * p[:, :1])
    kept = torch.where(keep, p, 0.0)
    mass = kept.sum(-1, keepdim=True)
    below = keep & (torch.cumsum(kept, dim=-1) <= u.double()[:, None] * mass)
    j = torch.minimum(below.sum(-1), keep.sum(-1) - 1)
    return probs_idx.gather(1, j[:, None])[:, 0]


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    # the kept prefix (top_k <= 64 at "large": one 1,024-wide block of probabilities per pass) and the side tensors
    return {"bytes": s["B"] * (2 * 4 * 1024 + 8 + 4 * 4 + 8), "flops": s["B"] * 2 * 1024 * 6}
