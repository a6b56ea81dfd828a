"""PaDiM anomaly map: Mahalanobis distance of every patch embedding to its position's Gaussian (anomalib Padim).

For image b and patch position p, delta = emb[b, p] - mean[p] and the score is
sqrt(max(delta^T inv_cov[p] delta, 0)), with one inverse covariance per position (shared by the batch).
"""
import torch

META = {
    "name": "padim_mahalanobis_map",
    "level": 2,
    "category": "statistics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 5e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"B": 2, "HW": 6, "C": 20},
        "ragged": {"B": 3, "HW": 7, "C": 37},
        "large": {"B": 32, "HW": 4096, "C": 100},
    },
    "baseline_notes": "One program per patch position (and per 64 images): loads the batch's deltas as a "
                      "[BLOCK_B, C] tile and multiplies it by the position's inverse covariance with tl.dot "
                      "in 32-column slices, then a row-wise dot with the deltas and a sqrt; 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """emb [B, HW, C] (channels-last patch embeddings), mean [HW, C], inv_cov [HW, C, C] (symmetric)."""
    s = META["sizes"][size]
    B, HW, C = s["B"], s["HW"], s["C"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    a = torch.randn(HW, C, C, generator=g, dtype=torch.float64)
    cov = a @ a.transpose(1, 2) / C + 0.01 * torch.eye(C, dtype=torch.float64)  # PaDiM's 0.01 I
    chol = torch.linalg.cholesky(cov)
    inv_cov = torch.cholesky_inverse(chol)
    inv_cov = 0.5 * (inv_cov + inv_cov.transpose(1, 2))
    mean = torch.randn(HW, C, generator=g, dtype=torch.float64)
    noise = torch.randn(B, HW, C, generator=g, dtype=torch.float64) * 1.5
    emb = mean + torch.einsum("pij,bpj->bpi", chol, noise)
    return tuple(t.to(dt).contiguous().to(device) for t in (emb, mean, inv_cov))


def reference(emb: torch.Tensor, mean: torch.Tensor, inv_cov: torch.Tensor) -> torch.Tensor:
    delta = emb.double() - mean.double()
    d2 = torch.einsum("bpi,pij,bpj->bp", delta, inv_cov.double(), delta)
    return d2.clamp(min=0).sqrt().to(emb.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, HW, C = s["B"], s["HW"], s["C"]
    return {"bytes": 4 * (B * HW * C + HW * C + HW * C * C + B * HW), "flops": 2 * B * HW * C * (C + 2)}
