"""Histogram-based outlier score (PyOD HBOS, static equal-width bins) of new samples.

HBOS fits one histogram of n_bins equal-width bins per feature d on the training data (np.histogram
with density=True: edges lo_d + b * width_d, b = 0..n_bins) and scores a sample by summing the
per-feature log densities, PyOD's _calculate_outlier_scores:
    t = (x_d - lo_d) / width_d
    0 <= t < n_bins                      -> log(hist[d, floor(t)] + alpha)
    -tol <= t < 0                        -> log(hist[d, 0] + alpha)           (just below the first edge)
    n_bins <= t <= n_bins + tol          -> log(hist[d, n_bins - 1] + alpha)  (just above the last edge)
    otherwise                            -> log(alpha)
    score = -sum_d of the above           (decision_function: larger = more anomalous)
The fit is done on the host: logtab[d, b] = log(hist[d, b] + alpha) for b < n_bins and
logtab[d, n_bins] = log(alpha), so a lookup never leaves the feature's row of the table.
Defaults n_bins = 10, alpha = 0.1, tol = 0.5 (PyOD's).
"""
import torch

META = {
    "name": "hbos_score",
    "level": 2,
    "category": "anomaly-detection",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-5}},
    "sizes": {
        "small": {"N": 48, "D": 7, "n_bins": 10, "n_train": 256},
        "ragged": {"N": 61, "D": 13, "n_bins": 10, "n_train": 300},
        "large": {"N": 1048576, "D": 32, "n_bins": 10, "n_train": 65536},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over blocks of 16 samples x all features "
                      "(one contiguous [16, D] DMA per block). Each program loads the [D, n_bins + 1] log-density "
                      "table once into UB; a sample's bin is found with (x - lo) / width, clamped by the tolerance "
                      "rule, and its log density is picked on chip by comparing the bin with the 16 padded table "
                      "columns (one-hot select and sum along the table axis); -sum over features is stored per "
                      "sample. No autotune.",
    "deterministic": True,
}
ALPHA = 0.1
TOL = 0.5


def _samples(n: int, d: int, g: torch.Generator, outlier_frac: float) -> torch.Tensor:
    """Two-cluster data with skewed features; a fraction of rows replaced by wide-spread outliers."""
    centre = torch.where(torch.rand(n, 1, generator=g) < 0.7, torch.zeros(1, d), torch.full((1, d), 2.5))
    x = centre + torch.randn(n, d, generator=g) * torch.linspace(0.5, 1.5, d)
    x[:, ::3] = x[:, ::3].abs() ** 1.5  # a few skewed features
    out = torch.rand(n, generator=g) < outlier_frac
    x[out] = (torch.rand(int(out.sum()), d, generator=g) - 0.5) * 24.0
    return x


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """X [N, D], lo [D], width [D], logtab [D, n_bins + 1], n_bins (int), tol (float)."""
    s = META["sizes"][size]
    n, d, nb, n_train = s["N"], s["D"], s["n_bins"], s["n_train"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    train = _samples(n_train, d, g, 0.0).double()
    lo, hi = train.min(0).values, train.max(0).values
    width = (hi - lo) / nb
    bins = ((train - lo) / width).floor().clamp(0, nb - 1).long()
    counts = torch.zeros(d, nb, dtype=torch.float64).scatter_add_(1, bins.T, torch.ones(d, n_train, dtype=torch.float64))
    hist = counts / (n_train * width[:, None])  # np.histogram(density=True)
    logtab = torch.cat([torch.log(hist + ALPHA), torch.full((d, 1), torch.log(torch.tensor(ALPHA)).item(),
                                                            dtype=torch.float64)], dim=1)
    x = _samples(n, d, g, 0.05)
    return (x.to(dt).to(device), lo.to(dt).to(device), width.to(dt).to(device), logtab.to(dt).to(device),
            nb, TOL)


def reference(x: torch.Tensor, lo: torch.Tensor, width: torch.Tensor, logtab: torch.Tensor,
              n_bins: int, tol: float) -> torch.Tensor:
    t = (x.float() - lo.float()) / width.float()  # the bin coordinate, as the fp32 kernels compute it
    t = t.double()
    b = t.clamp(0, n_bins - 1).floor().long()
    far = (t < -tol) | (t > n_bins + tol)
    b = torch.where(far, torch.full_like(b, n_bins), b)
    v = torch.gather(logtab.double(), 1, b.T).T
    return (-v.sum(1)).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["N"] * s["D"] + 4 * s["N"], "flops": 6 * s["N"] * s["D"]}
