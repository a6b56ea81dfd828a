"""Per-gene mean and dispersion of scanpy's highly_variable_genes(flavor="seurat") on a dense matrix.

Input X [cells, genes] is log-normalised expression (normalize_total + log1p, natural log), row-major
as AnnData holds it. scanpy's seurat flavour undoes the log, takes per-gene moments with
_get_mean_var (ddof = 1) and returns, before the binning by mean that follows on the host:
    E        = expm1(X)
    mean_g   = mean_c E[c, g];   var_g = (mean_c E[c, g]^2 - mean_g^2) * n / (n - 1)
    mean_g   = 1e-12 where mean_g == 0
    disp_g   = log(var_g / mean_g)   (NaN where var_g / mean_g == 0)
    means_g  = log1p(mean_g)
Returns (means [genes] fp32, dispersions [genes] fp32).
"""
import torch

META = {
    "name": "hvg_seurat_dispersion",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"cells": 48, "genes": 100},
        "ragged": {"cells": 37, "genes": 301},
        "large": {"cells": 12_000, "genes": 20_000},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 256 genes; each walks the cells "
                      "in [16, 256] row-major tiles (1 KiB contiguous per row), expm1 on the tile and per-gene "
                      "sum / sum of squares by a reduction over the tile's cell axis; one store per gene block. "
                      "No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """X [cells, genes] fp32: log1p(counts / total * 1e4) of a sparse-looking count matrix, dense layout."""
    s = META["sizes"][size]
    n, g_n = s["cells"], s["genes"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    detect = 0.01 + 0.5 * torch.rand(g_n, generator=g).pow(3.0)    # per-gene detection rate
    level = torch.exp(torch.randn(g_n, generator=g))                # per-gene expression level
    x = torch.rand(n, g_n, generator=g)
    hit = x < detect
    x = torch.where(hit, -torch.log1p(-x / detect) * level + 1.0, torch.zeros(()))   # counts-like >= 1
    x[torch.randint(0, n, (g_n,), generator=g), torch.arange(g_n)] += 1.0            # every gene seen once
    size_factor = 1e4 / (x.sum(dim=1, keepdim=True) * (20_000.0 / g_n))
    x = torch.log1p(x.floor() * size_factor)
    return (x.to(dt).to(device),)


def reference(X: torch.Tensor) -> tuple:
    e = torch.expm1(X.double())
    n = e.shape[0]
    mean = e.mean(dim=0)
    var = ((e * e).mean(dim=0) - mean * mean) * (n / (n - 1))
    mean = torch.where(mean == 0, torch.full_like(mean, 1e-12), mean)
    disp = var / mean
    disp = torch.where(disp == 0, torch.full_like(disp, float("nan")), disp)
    return torch.log1p(mean).to(X.dtype), torch.log(disp).to(X.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["cells"] * s["genes"] + 8 * s["genes"], "flops": 4 * s["cells"] * s["genes"]}
