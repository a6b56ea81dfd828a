"""Generalised Lomb-Scargle periodograms of a batch of light curves on a common cadence (astropy LombScargle).

astropy.timeseries.LombScargle(t, y, dy) with its defaults (fit_mean=True, center_data=True,
normalization="standard", nterms=1), evaluated for S stars that share one time grid, as a survey
pipeline does for the light curves extracted from one sector of full-frame images. Per star s the
weights are w = dy^-2 / sum(dy^-2) and y is centred on its weighted mean; per frequency f
(omega = 2 pi f), with sums over the N cadences:
    C = sum w cos wt,  S = sum w sin wt,  C2 = sum w cos 2wt - (C^2 - S^2),  S2 = sum w sin 2wt - 2 C S
    2 w tau = atan2(S2, C2)
    YC_tau = sum w y cos(wt - w tau),   YS_tau = sum w y sin(wt - w tau)
    CC_tau = sum w cos^2(wt - w tau) - C_tau^2,   SS_tau = sum w sin^2(wt - w tau) - S_tau^2
    power = (YC_tau^2 / CC_tau + YS_tau^2 / SS_tau) / sum w y^2
(C_tau, S_tau the weighted means of cos / sin(wt - w tau)). Returns power [S, F] fp32.
Times are days since the start of the sector (the pipeline subtracts the epoch before the kernel).
"""
import math

import torch

META = {
    "name": "lombscargle_batch",
    "level": 2,
    "category": "spectral",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-3, "rtol": 2e-3}},
    "sizes": {
        "small": {"S": 3, "N": 40, "F": 24},
        "ragged": {"S": 5, "N": 77, "F": 37},
        "large": {"S": 512, "N": 3584, "F": 8192},
    },
    "baseline_notes": "Grid of the 20 AI cores looping over (64-star block, 64-frequency block) tasks: a weighted-mean "
                      "pass over the block's light curves, then per 64-cadence tile the phases f*t (fractional "
                      "cycles), cos/sin and their double angles are computed once as [64 cadences, 64 freqs] tiles "
                      "and contracted with the [64 stars, 64 cadences] weight and weighted-flux tiles by six tl.dot "
                      "on the cube; tau rotation and normalisation in the epilogue. No autotune.",
    "deterministic": True,
}
CADENCE = 1.0 / 144.0  # 10-minute full-frame-image cadence (TESS extended mission), days


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """t [N] (days), y [S, N] (normalised flux), dy [S, N] (flux errors), freq [F] (cycles per day)."""
    s = META["sizes"][size]
    S, N, F = s["S"], s["N"], s["F"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # one sector: a cadence grid with the mid-sector downlink gap cut out
    n_all = N + max(1, N // 20)
    keep = torch.ones(n_all, dtype=torch.bool)
    gap0 = n_all // 2 - (n_all - N) // 2
    keep[gap0:gap0 + (n_all - N)] = False
    t = torch.arange(n_all, dtype=torch.float64)[keep] * CADENCE
    baseline = float(t[-1] - t[0])
    period = 10 ** (torch.rand(S, 1, generator=g, dtype=torch.float64) * 2.0 - 1.0)   # 0.1 - 10 d
    amp = 10 ** (torch.rand(S, 1, generator=g, dtype=torch.float64) * 2.0 - 3.5)
    sigma = 10 ** (torch.rand(S, 1, generator=g, dtype=torch.float64) - 3.5)
    phase0 = torch.rand(S, 1, generator=g, dtype=torch.float64) * 2 * math.pi
    dy = sigma * (1.0 + 0.2 * torch.rand(S, N, generator=g, dtype=torch.float64))
    y = 1.0 + amp * torch.sin(2 * math.pi * t[None, :] / period + phase0) \
        + dy * torch.randn(S, N, generator=g, dtype=torch.float64)
    # astropy's autofrequency spacing (samples_per_peak = 5) from minimum_frequency = 1 / baseline (periods
    # up to the sector length); at large the grid ends at ~60 c/d, below the 72 c/d Nyquist frequency
    df = 1.0 / (5.0 * baseline)
    freq = 1.0 / baseline + df * torch.arange(F, dtype=torch.float64)
    return t.to(dt).to(device), y.to(dt).to(device), dy.to(dt).to(device), freq.to(dt).to(device)


def reference(t: torch.Tensor, y: torch.Tensor, dy: torch.Tensor, freq: torch.Tensor) -> torch.Tensor:
    td, yd, dyd, fd = t.double(), y.double(), dy.double(), freq.double()
    w = dyd ** -2
    w = w / w.sum(dim=1, keepdim=True)
    yc = yd - (w * yd).sum(dim=1, keepdim=True)
    wy = w * yc
    yy = (wy * yc).sum(dim=1, keepdim=True)                       # [S, 1]
    out = torch.empty(y.shape[0], freq.shape[0], dtype=torch.float64, device=y.device)
    for f0 in range(0, fd.shape[0], 2048):
        wt = 2 * math.pi * fd[f0:f0 + 2048, None] * td[None, :]      # [Fc, N]
        cos_t, sin_t = torch.cos(wt), torch.sin(wt)
        C, Sn = w @ cos_t.T, w @ sin_t.T                           # [S, Fc]
        C2 = w @ (cos_t * cos_t - sin_t * sin_t).T - (C * C - Sn * Sn)
        S2 = 2.0 * (w @ (sin_t * cos_t).T) - 2.0 * C * Sn
        wtau = 0.5 * torch.atan2(S2, C2)
        ct, st = torch.cos(wtau), torch.sin(wtau)
        ct2, st2 = torch.cos(2 * wtau), torch.sin(2 * wtau)
        YC, YS = wy @ cos_t.T, wy @ sin_t.T
        Craw2, Sraw2 = w @ (cos_t * cos_t - sin_t * sin_t).T, 2.0 * (w @ (sin_t * cos_t).T)
        # cos(wt - wtau) = cos wt cos wtau + sin wt sin wtau, and the same rotation for the sums
        YCt = YC * ct + YS * st
        YSt = YS * ct - YC * st
        Ct = C * ct + Sn * st
        St = Sn * ct - C * st
        CCt = 0.5 * (1.0 + Craw2 * ct2 + Sraw2 * st2) - Ct * Ct
        SSt = 0.5 * (1.0 - Craw2 * ct2 - Sraw2 * st2) - St * St
        out[:, f0:f0 + 2048] = (YCt * YCt / CCt + YSt * YSt / SSt) / yy
    return out.to(y.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    S, N, F = s["S"], s["N"], s["F"]
    return {"bytes": 4 * (N + 2 * S * N + F + S * F), "flops": 12 * S * N * F}
