"""Local outlier factor of the training set (scikit-learn LocalOutlierFactor.fit -> negative_outlier_factor_).

Input is the k-nearest-neighbour graph that fit() gets from kneighbors(): dist [N, k] (ascending per
row, self excluded) and nbr [N, k] (int32 indices). With k_distance(j) = dist[j, k - 1]:
    reach[i, m] = max(dist[i, m], k_distance(nbr[i, m]))           (reachability distance)
    lrd[i]      = 1 / (mean_m reach[i, m] + 1e-10)                  (_local_reachability_density)
    nof[i]      = -mean_m lrd[nbr[i, m]] / lrd[i]                   (negative_outlier_factor_)
Returns nof [N] fp32 (about -1 for inliers, well below -1 for outliers).
"""
import torch

META = {
    "name": "lof_negative_outlier_factor",
    "level": 2,
    "category": "anomaly-detection",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 50, "K": 7, "F": 4},
        "ragged": {"N": 83, "K": 20, "F": 4},
        "large": {"N": 524288, "K": 20, "F": 4},
    },
    "baseline_notes": "Two launches, each 40 programs (the 910B4's vector cores) looping over blocks of 8 points: "
                      "the first loads the [8, k] distance and neighbour rows (contiguous DMA), gathers the "
                      "neighbours' k-distances, and stores lrd [N]; the second gathers lrd at the neighbour "
                      "indices and stores -mean(lrd[nbr]) / lrd. No autotune.",
    "deterministic": True,
}
WINDOW = 48  # candidates on each side along the sort order; stands in for the exact kneighbors search


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """dist [N, K] fp32 ascending, nbr [N, K] int32: the kNN graph of clustered points with outliers."""
    s = META["sizes"][size]
    n, k, f = s["N"], s["K"], s["F"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    centres = torch.randn(8, f, generator=g) * 4.0
    pts = centres[torch.randint(0, 8, (n,), generator=g)] + torch.randn(n, f, generator=g) * torch.rand(
        n, 1, generator=g).add(0.3)
    out = torch.rand(n, generator=g) < 0.03
    pts[out] = (torch.rand(int(out.sum()), f, generator=g) - 0.5) * 24.0
    pts = pts[torch.argsort(pts @ torch.randn(f, generator=g))]  # points stored in a spatial order
    if n <= 4096:  # exact search
        d = torch.cdist(pts.double(), pts.double())
        d.fill_diagonal_(float("inf"))
        dist, nbr = torch.topk(d, k, dim=1, largest=False)
    else:  # neighbours among the WINDOW nearest positions on each side of the spatial order
        offs = torch.cat([torch.arange(-WINDOW, 0), torch.arange(1, WINDOW + 1)])
        dist_l, nbr_l = [], []
        for start in range(0, n, 65536):
            rows = torch.arange(start, min(n, start + 65536))
            cand = rows[:, None] + offs[None, :]
            ok = (cand >= 0) & (cand < n)
            cand = cand.clamp(0, n - 1)
            d = (pts[rows][:, None, :].double() - pts[cand].double()).pow(2).sum(-1).sqrt()
            d = d.masked_fill(~ok, float("inf"))
            dd, j = torch.topk(d, k, dim=1, largest=False)
            dist_l.append(dd)
            nbr_l.append(torch.gather(cand, 1, j))
        dist, nbr = torch.cat(dist_l), torch.cat(nbr_l)
    return dist.to(dt).to(device), nbr.to(torch.int32).to(device)


def reference(dist: torch.Tensor, nbr: torch.Tensor) -> torch.Tensor:
    d = dist.double()
    idx = nbr.long()
    kdist = d[:, -1]
    lrd = 1.0 / (torch.maximum(d, kdist[idx]).mean(1) + 1e-10)
    return (-(lrd[idx] / lrd[:, None]).mean(1)).to(dist.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 8 * s["N"] * s["K"] + 4 * s["N"], "flops": 6 * s["N"] * s["K"]}
