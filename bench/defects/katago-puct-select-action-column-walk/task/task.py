"""PUCT child selection of a batched Go search (KataGo's selection formula, 19x19 board + pass = 362 moves).

For every node b being descended (one row of child statistics each):
    total      = sum_a N[b, a]                                   (KataGo's totalChildWeight)
    cpuct      = 1.0 + 0.45 * log((total + 500) / 500)           (cpuctExploration, ...Log, ...Base)
    scale      = cpuct * sqrt(total + 0.01)
    fpu        = parent_utility[b] - 0.2 * sqrt(sum_{a: N > 0} P[b, a])   (fpuReductionMax, visited policy mass)
    q[b, a]    = W[b, a] / N[b, a] if N[b, a] > 0 else fpu
    score      = q + scale * P[b, a] / (1 + N[b, a]),  -inf on illegal moves
Returns (selected move = argmax_a score (first on ties) int32 [B], its score fp32 [B]).
P is the policy prior (fp32), N the child visit counts (int32), W the children's summed utility from the
mover's point of view (fp32), legal a bool mask. The inputs are generated so that every row's best move beats
the runner-up by at least 1e-3, so the selection does not depend on the order of float sums.
"""
import torch

META = {
    "name": "puct_select",
    "level": 2,
    "category": "tree-search",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 6, "A": 362},
        "ragged": {"B": 9, "A": 82},
        "large": {"B": 16384, "A": 362},
    },
    "baseline_notes": "Grid over blocks of 2 nodes; each program loads its nodes' whole rows ([2, next_pow2(A)] "
                      "tiles, contiguous along the moves) of P, N, W and the legal mask once, reduces the visit "
                      "total and visited policy mass along the row, scores every move and takes tl.argmax / "
                      "tl.max along the row. 2 warps, no autotune.",
    "deterministic": True,
}
CPUCT, CPUCT_LOG, CPUCT_BASE, FPU_REDUCTION = 1.0, 0.45, 500.0, 0.2
MARGIN = 1e-3


def _scores(prior, visits, wsum, legal, parent_utility):
    p, n, w = prior.double(), visits.double(), wsum.double()
    total = n.sum(1, keepdim=True)
    cpuct = CPUCT + CPUCT_LOG * torch.log((total + CPUCT_BASE) / CPUCT_BASE)
    scale = cpuct * torch.sqrt(total + 0.01)
    fpu = parent_utility.double()[:, None] - FPU_REDUCTION * torch.sqrt((p * (n > 0)).sum(1, keepdim=True))
    q = torch.where(n > 0, w / n.clamp(min=1), fpu)
    score = q + scale * p / (1 + n)
    return torch.where(legal, score, torch.full_like(score, float("-inf")))


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """prior fp32 [B, A], visits int32 [B, A], wsum fp32 [B, A], legal bool [B, A], parent_utility fp32 [B]."""
    s = META["sizes"][size]
    B, A = s["B"], s["A"]
    g = torch.Generator().manual_seed(seed)
    legal = torch.rand(B, A, generator=g) < 0.85
    legal[:, A - 1] = True                                   # pass is always legal
    logits = torch.randn(B, A, generator=g) * 2.0
    prior = torch.softmax(logits.masked_fill(~legal, float("-inf")), dim=1)
    node_visits = torch.randint(1, 4000, (B, 1), generator=g).float()
    # visits roughly follow the prior (the PUCT equilibrium), with search noise
    noise = torch.exp(0.7 * torch.randn(B, A, generator=g))
    visits = torch.floor(prior * node_visits * noise).long() * legal
    parent_utility = torch.rand(B, generator=g) * 1.6 - 0.8
    q = (parent_utility[:, None] + 0.3 * torch.randn(B, A, generator=g)).clamp(-1, 1)
    wsum = q * visits
    # make the winner unambiguous: lift the best move until it beats the runner-up by MARGIN
    score = _scores(prior, visits, wsum, legal, parent_utility)
    top2 = score.topk(2, dim=1)
    lift = (MARGIN - (top2.values[:, 0] - top2.values[:, 1])).clamp(min=0)
    best = top2.indices[:, 0]
    rows = torch.arange(B)
    seen = visits[rows, best] > 0
    wsum[rows[seen], best[seen]] += (2 * lift[seen] * visits[rows[seen], best[seen]]).float()
    total = visits.sum(1).double()
    scale = (CPUCT + CPUCT_LOG * torch.log((total + CPUCT_BASE) / CPUCT_BASE)) * torch.sqrt(total + 0.01)
    prior[rows[~seen], best[~seen]] += (2 * lift[~seen] / scale[~seen]).float()
    return (prior.to(device), visits.to(torch.int32).to(device), wsum.float().to(device), legal.to(device),
            parent_utility.to(device))


def reference(prior, visits, wsum, legal, parent_utility) -> tuple:
    score = _scores(prior, visits, wsum, legal, parent_utility)
    best = score.max(dim=1)
    return best.indices.to(torch.int32), best.values.to(prior.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 13 * s["B"] * s["A"] + 12 * s["B"], "flops": 12 * s["B"] * s["A"]}
