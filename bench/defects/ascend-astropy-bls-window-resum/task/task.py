"""Box least squares transit search over phase-folded, binned light curves (astropy BoxLeastSquares objective).

The transit search of astropy.timeseries.BoxLeastSquares (bls.c run_bls, objective="likelihood") after the
folding step, batched over trial periods: every trial period p was folded and binned into NB phase bins of
the inverse-variance-weighted flux wy[b, p] = sum ivar * y and the weight w[b, p] = sum ivar (y is the flux
minus its weighted mean). The arrays are bin-major, [NB + DMAX - 1, P]: the folding kernel writes one row
of all trial periods per phase bin, so a tile of periods is contiguous, and the first DMAX - 1 bins are
appended after the last one so that boxes may wrap around phase 0 (bls.c does the same). For every box
of d bins (d from the list of trial durations) starting at any of the NB bins:
    Y_in = sum of wy over the box,  W_in = sum of w over the box,  W_out = sum_w - W_in
    depth = (sum_wy - Y_in) / W_out - Y_in / W_in
    objective = 0.5 * W_in * W_out / sum_w * depth^2      (the log-likelihood gain of the box model)
counted only for a dip (depth > 0) with both W_in and W_out above 1e-5 * sum_w (bls.c's emptiness test,
made relative). Returns the best objective per period, power [P] fp32 (0 when no box qualifies).
The durations are fixed numbers of phase bins for every period (fractions q of the period, as in
Kovacs et al.'s eebls); sum_wy and sum_w are the weighted totals of the whole light curve.
"""
import math

import torch

META = {
    "name": "bls_box_search",
    "level": 2,
    "category": "signal",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"P": 6, "NB": 64, "N": 1500, "durations": [2, 3, 4, 6, 8]},
        "ragged": {"P": 5, "NB": 100, "N": 2000, "durations": [3, 5, 7, 11]},
        "large": {"P": 4096, "NB": 2048, "N": 18000,
                  "durations": [8, 10, 12, 16, 20, 24, 32, 40, 48, 64, 80, 96]},
    },
    "baseline_notes": "Two launches on the 40 vector cores, programs looping over blocks of 32 periods: an exclusive "
                      "prefix sum down the bins of wy and w ([64 bins, 32 periods] tiles, tl.cumsum along the "
                      "leading axis plus a carried running total) into an [NB + DMAX, P] scratch, then per "
                      "duration and bin tile the box sums as differences of two prefix loads, the objective, "
                      "and a running max per period. No autotune.",
    "deterministic": True,
}
MIN_FRAC = 1e-5


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """wy [NB + DMAX - 1, P], w [NB + DMAX - 1, P], durations int32 [ND] (bins), NB, sum_wy, sum_w."""
    s = META["sizes"][size]
    P, NB, N = s["P"], s["NB"], s["N"]
    dur = s["durations"]
    dmax = max(dur)
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # a TESS-like 2-minute light curve over ~27 days with the mid-sector gap, one injected transit signal
    span = 27.0
    t = torch.sort(torch.rand(N, generator=g, dtype=torch.float64) * span).values
    t = torch.where(t > 13.0, t + 1.0, t)
    err = 1e-3 * (1.0 + 0.3 * torch.rand(N, generator=g, dtype=torch.float64))
    flux = 1.0 + err * torch.randn(N, generator=g, dtype=torch.float64)
    p_true = 1.5 + 3.0 * float(torch.rand(1, generator=g))
    in_transit = ((t + 0.3) % p_true) < 0.04 * p_true
    flux = flux - 2e-3 * in_transit.double()
    ivar = err ** -2
    sum_w = float(ivar.sum())
    y = flux - float((ivar * flux).sum()) / sum_w
    sum_wy = float((ivar * y).sum())
    periods = torch.exp(torch.linspace(math.log(0.5), math.log(13.0), P, dtype=torch.float64))
    wy = torch.zeros(P, NB, dtype=torch.float64)
    w = torch.zeros(P, NB, dtype=torch.float64)
    for p0 in range(0, P, 128):
        per = periods[p0:p0 + 128, None]
        b = torch.clamp(((t[None, :] % per) / per * NB).long(), max=NB - 1)
        flat = (b + NB * torch.arange(per.shape[0])[:, None]).reshape(-1)
        n = per.shape[0] * NB
        wy[p0:p0 + 128] = torch.bincount(flat, weights=(ivar * y).expand(per.shape[0], N).reshape(-1),
                                         minlength=n).view(-1, NB)
        w[p0:p0 + 128] = torch.bincount(flat, weights=ivar.expand(per.shape[0], N).reshape(-1),
                                        minlength=n).view(-1, NB)
    wy = torch.cat([wy, wy[:, :dmax - 1]], dim=1).T.contiguous()
    w = torch.cat([w, w[:, :dmax - 1]], dim=1).T.contiguous()
    durations = torch.tensor(dur, dtype=torch.int32)
    return (wy.to(dt).to(device), w.to(dt).to(device), durations.to(device), NB, sum_wy, sum_w)


def reference(wy: torch.Tensor, w: torch.Tensor, durations: torch.Tensor, nb: int, sum_wy: float,
              sum_w: float) -> torch.Tensor:
    zero = torch.zeros(wy.shape[1], 1, dtype=torch.float64, device=wy.device)
    cy = torch.cat([zero, torch.cumsum(wy.double().T, dim=1)], dim=1)
    cw = torch.cat([zero, torch.cumsum(w.double().T, dim=1)], dim=1)
    best = torch.zeros(wy.shape[1], dtype=torch.float64, device=wy.device)
    for d in durations.tolist():
        y_in = cy[:, d:d + nb] - cy[:, :nb]
        w_in = cw[:, d:d + nb] - cw[:, :nb]
        w_out = sum_w - w_in
        ok = (w_in > MIN_FRAC * sum_w) & (w_out > MIN_FRAC * sum_w)
        depth = (sum_wy - y_in) / torch.where(ok, w_out, 1.0) - y_in / torch.where(ok, w_in, 1.0)
        obj = 0.5 * w_in * w_out / sum_w * depth * depth
        obj = torch.where(ok & (depth > 0), obj, torch.zeros_like(obj))
        best = torch.maximum(best, obj.max(dim=1).values)
    return best.to(wy.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    P, NB, dur = s["P"], s["NB"], s["durations"]
    return {"bytes": 8 * P * (NB + max(dur) - 1) + 4 * P, "flops": 12 * P * NB * len(dur)}
