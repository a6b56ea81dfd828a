"""Voxelwise OLS fit of a first-level fMRI GLM (nilearn.glm.first_level.run_glm, noise_model='ols').

nilearn's OLSModel keeps the design X [T, P] and its pseudo-inverse pinv(X) [P, T]; fitting the
masked BOLD signals Y [T, V] (time x voxels, the masker's layout) gives
    beta = pinv(X) @ Y                      [P, V]
    resid = Y - X @ beta                    [T, V]
    dispersion = sum_t resid**2 / (T - P)   [V]     (SSE / df_residuals, full-rank design)
Returns (beta [P, V] fp32, dispersion [V] fp32).
"""
import math

import torch

META = {
    "name": "glm_ols_fit",
    "level": 2,
    "category": "linear-algebra",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"T": 40, "P": 12, "V": 96},
        "ragged": {"T": 53, "P": 20, "V": 150},
        "large": {"T": 405, "P": 20, "V": 228483},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 32 voxels; per block a first "
                      "pass over T in chunks of 16 frames accumulates beta = pinv(X) @ Y with tl.dot "
                      "([32 regressors padded, 16] x [16, 32]), a second pass forms the residual "
                      "Y - X @ beta with tl.dot and sums its square along time; no autotune.",
    "deterministic": True,
}
TR = 0.72
HIGH_PASS = 0.01


def _design(T: int, P: int, g: torch.Generator) -> torch.Tensor:
    """Task regressors (boxcars smoothed by a gamma HRF), motion-like random walks, cosine drifts, constant."""
    frame_times = torch.arange(T, dtype=torch.float64) * TR
    n_drift = max(int(math.floor(2 * T * HIGH_PASS * TR)), 1)
    n_motion = 6 if P >= 12 else 2
    n_task = P - n_drift - n_motion - 1
    cols = []
    hrf_t = torch.arange(0, 32.0, TR, dtype=torch.float64)
    hrf = hrf_t ** 5 * torch.exp(-hrf_t) / 120.0 - hrf_t ** 15 * torch.exp(-hrf_t) / (6.0 * 1.3e12)
    for _ in range(n_task):
        onsets = torch.rand(max(T // 40, 2), generator=g, dtype=torch.float64) * T * TR
        box = torch.zeros(T, dtype=torch.float64)
        for o in onsets:
            box[(frame_times >= o) & (frame_times < o + 12.0)] = 1.0
        conv = torch.nn.functional.conv1d(box.view(1, 1, -1), hrf.flip(0).view(1, 1, -1),
                                          padding=hrf.numel() - 1)[0, 0, :T]
        cols.append(conv / conv.abs().max().clamp(min=1e-6))
    for _ in range(n_motion):
        cols.append(torch.cumsum(torch.randn(T, generator=g, dtype=torch.float64), 0) * 0.02)
    for k in range(1, n_drift + 1):
        cols.append(math.sqrt(2.0 / T) * torch.cos(math.pi / T * (torch.arange(T) + 0.5) * k))
    cols.append(torch.ones(T, dtype=torch.float64))
    return torch.stack(cols, 1)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Y [T, V] (BOLD in percent signal change, signal_scaling=0: mean ~0), X [T, P] (design matrix), pinv_x [P, T] (its pseudo-inverse)."""
    s = META["sizes"][size]
    T, P, V = s["T"], s["P"], s["V"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    X = _design(T, P, g)
    pinv_x = torch.linalg.pinv(X)
    coef = torch.randn(P, V, generator=g) * 0.5
    Y = X.float() @ coef + torch.randn(T, V, generator=g) * (0.5 + torch.rand(V, generator=g))
    return Y.to(dt).to(device), X.to(dt).to(device), pinv_x.to(dt).to(device)


def reference(Y: torch.Tensor, X: torch.Tensor, pinv_x: torch.Tensor) -> tuple:
    y, x, px = Y.double(), X.double(), pinv_x.double()
    beta = px @ y
    resid = y - x @ beta
    dispersion = (resid * resid).sum(0) / (y.shape[0] - x.shape[1])
    return beta.to(Y.dtype), dispersion.to(Y.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    T, P, V = s["T"], s["P"], s["V"]
    return {"bytes": 4 * (2 * T * V + P * V + V + 2 * T * P), "flops": 4 * P * T * V + 3 * T * V}
