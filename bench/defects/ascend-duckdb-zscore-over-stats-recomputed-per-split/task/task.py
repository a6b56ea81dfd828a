"""Null-aware z-score of numeric columns as DuckDB's window aggregates compute it over the whole table:

    select (fare_amount - avg(fare_amount) over ()) / stddev_samp(fare_amount) over (), ...

For every column c (NULLs skipped by both aggregates, as DuckDB's avg / stddev_samp do):
    n_c = #valid, mean_c = sum(valid x) / n_c, std_c = sqrt(sum(valid (x - mean_c)^2) / (n_c - 1))
    out[c, i] = (x[c, i] - mean_c) / std_c where row i is valid, else NULL.
Columns are stored one after another ([C, N], each column contiguous as in a DuckDB column segment) with
a validity byte per row (DuckDB's ValidityMask unpacked to uint8, 1 = valid). The value slot of a NULL
row is unspecified (here: leftover garbage), and the output writes 0.0 into NULL rows (its validity is
the input's).
"""
import torch

META = {
    "name": "zscore_over_window",
    "level": 2,
    "category": "normalization",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"C": 3, "N": 3000},
        "ragged": {"C": 5, "N": 2311},
        "large": {"C": 2, "N": 16_777_216},
    },
    "baseline_notes": "Grid (C, S) with S = 40 // C splits of each column (40 = the 910B's vector cores). "
                      "A first kernel reduces each split once (count, mean, then the sum of squared "
                      "deviations about it) into a [C, 3, S] partials table; the second kernel merges "
                      "its column's S partials (Chan's formula) and normalizes its split. Blocks of 2048 "
                      "rows, validity converted to float32 on chip and compared as float. No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x float32 [C, N] (trip-level amounts: log-normal, different scale per column), valid uint8 [C, N]
    (about 6 % NULLs per column, NULL slots hold garbage)."""
    s = META["sizes"][size]
    c, n = s["C"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    scale = torch.linspace(1.0, 18.0, c)[:, None]
    x = scale * torch.exp(0.8 * torch.randn(c, n, generator=g))
    valid = torch.rand(c, n, generator=g) >= 0.06
    garbage = torch.randn(c, n, generator=g) * 1e4
    x = torch.where(valid, x, garbage)
    return x.to(dt).to(device), valid.to(torch.uint8).to(device)


def reference(x: torch.Tensor, valid: torch.Tensor) -> torch.Tensor:
    v = valid.bool()
    xd = torch.where(v, x.double(), 0.0)
    n = v.sum(dim=1, keepdim=True).double()
    mean = xd.sum(dim=1, keepdim=True) / n
    dev = torch.where(v, xd - mean, 0.0)
    std = torch.sqrt((dev * dev).sum(dim=1, keepdim=True) / (n - 1.0))
    return torch.where(v, dev / std, 0.0).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    c, n = s["C"], s["N"]
    return {"bytes": 19 * c * n, "flops": 12 * c * n}
