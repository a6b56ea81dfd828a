"""Normalised cross-correlation of M templates against one continuous channel (matched-filter detection).

ObsPy's correlate_template(data, template, mode="valid", normalize="full") — the per-channel kernel of
EQcorrscan's match_filter — slides every template w_m (length K) along the continuous trace and returns
Pearson's coefficient for each lag t:

    cc[m, t] = sum_k (w[m, k] - mean(w_m)) * (d[t + k] - mean_t) / sqrt(sum_k (w[m,k] - mean(w_m))^2 * sum_k (d[t+k] - mean_t)^2)

with mean_t the mean of the data window d[t : t + K]; lags where a window has zero variance give 0.
Production shape: a 1-hour chunk of one channel at 50 Hz (180,000 samples, band-passed 2-9 Hz) against a
tribe of 256 templates of 256 samples (5.12 s) each -> cc fp32 [256, 179,745] (184 MB).
"""
import math

import torch

META = {
    "name": "obspy_correlate_template",
    "level": 2,
    "category": "seismology",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"N": 2000, "M": 20, "K": 40},
        "ragged": {"N": 1501, "M": 13, "K": 37},
        "large": {"N": 180000, "M": 256, "K": 256},
    },
    "baseline_notes": "Grid (lag blocks of 64, template blocks of 16); each program walks the template length in "
                      "steps of 16, loading a [16, 16] template tile and a [64, 16] tile of sliding data windows, "
                      "multiplies them with tl.dot (tf32 tensor cores) and keeps the template and window sums and "
                      "sums of squares alongside; the epilogue centres and normalises. 4 warps, no autotune.",
    "deterministic": True,
}
RATE_HZ = 50.0


def _bandpass_fir(n_taps: int, lo: float, hi: float) -> torch.Tensor:
    """Hann-windowed sinc band-pass (lo..hi Hz at RATE_HZ), float64."""
    k = torch.arange(n_taps, dtype=torch.float64) - (n_taps - 1) / 2.0

    def lowpass(fc):
        x = 2.0 * fc / RATE_HZ
        return x * torch.sinc(x * k)

    return (lowpass(hi) - lowpass(lo)) * torch.hann_window(n_taps, periodic=False, dtype=torch.float64)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Band-passed continuous data [N] with repeating events, and M templates [M, K] cut from it."""
    s = META["sizes"][size]
    n, m, k = s["N"], s["M"], s["K"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # a few event families (repeating earthquakes): decaying band-limited wavelets
    n_fam = 4
    tt = torch.arange(k, dtype=torch.float64) / RATE_HZ
    fam = torch.randn(n_fam, k, generator=g, dtype=torch.float64) * torch.exp(-tt / (0.3 * k / RATE_HZ))
    raw = 40.0 * torch.randn(n + 200, generator=g, dtype=torch.float64)
    n_events = max(4, n // 2000)
    starts = torch.randint(0, n + 200 - k, (n_events,), generator=g)
    amps = 200.0 * torch.rand(n_events, generator=g, dtype=torch.float64) + 50.0
    which = torch.randint(0, n_fam, (n_events,), generator=g)
    for st, a, f in zip(starts.tolist(), amps.tolist(), which.tolist()):
        raw[st:st + k] += a * fam[f]
    h = _bandpass_fir(101, 2.0, 9.0)
    data = torch.nn.functional.conv1d(raw[None, None], h.flip(0)[None, None])[0, 0][:n]
    # templates: windows cut at event onsets and at random times, plus a little noise
    cut = torch.cat([starts.clamp(max=n - k), torch.randint(0, n - k + 1, (m,), generator=g)])[:m]
    templates = torch.stack([data[c:c + k] for c in cut.tolist()])
    templates = templates + 2.0 * torch.randn(m, k, generator=g, dtype=torch.float64)
    return data.to(device=device, dtype=dt).contiguous(), templates.to(device=device, dtype=dt).contiguous()


def reference(data: torch.Tensor, templates: torch.Tensor) -> torch.Tensor:
    d, w = data.double(), templates.double()
    k = w.shape[1]
    wc = w - w.mean(dim=1, keepdim=True)
    win = d.unfold(0, k, 1)                                   # [L, K]
    wdc = win - win.mean(dim=1, keepdim=True)
    num = wc @ wdc.T                                          # [M, L]
    den = torch.sqrt((wc * wc).sum(1)[:, None] * (wdc * wdc).sum(1)[None, :])
    cc = torch.where(den > 0, num / den.clamp(min=1e-300), torch.zeros_like(num))
    return cc.to(data.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    lags = s["N"] - s["K"] + 1
    return {"bytes": 4 * (s["N"] + s["M"] * s["K"] + s["M"] * lags), "flops": 2 * s["M"] * s["K"] * lags}
