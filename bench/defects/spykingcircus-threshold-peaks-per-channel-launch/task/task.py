"""Per-electrode threshold-crossing peak detection of SpyKING CIRCUS on one filtered, whitened data chunk.

SpyKING CIRCUS detects, on every electrode c separately, the negative peaks of the chunk that cross
thr[c] = spike_thresh * MAD_c (spike_thresh = 6; MAD_c is the channel's median absolute deviation
scaled by 1/0.6745). Here a sample t of channel c is a peak when
    x[c, t] < -thr[c]
    x[c, t] <  x[c, t - k]   for k = 1..R   (strictly below the R previous samples)
    x[c, t] <= x[c, t + k]   for k = 1..R   (not above the R next samples)
with R = 3 samples (0.15 ms at 20 kHz, the exclusion sweep); the R samples at each end of the chunk are
never peaks. The chunk is channel-major, x [C, T] fp32. Returns the peak mask int8 [C, T] (1 = peak).
"""
import torch

RADIUS = 3

META = {
    "name": "threshold_peak_detection",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"C": 4, "T": 300},
        "ragged": {"C": 5, "T": 777},
        "large": {"C": 252, "T": 600000},
    },
    "baseline_notes": "One launch over a 2-D grid (time blocks of 1024 samples, electrodes); each program loads "
                      "its block and the 2R shifted neighbours (cache hits), compares against the electrode's "
                      "threshold and stores the int8 mask. 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [C, T] (whitened chunk: unit-ish noise with negative spike waveforms on neighbouring
    electrodes), thr [C] (6 x MAD / 0.6745 per electrode)."""
    s = META["sizes"][size]
    C, T = s["C"], s["T"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = (0.8 + 0.4 * torch.rand(C, 1, generator=g)) * torch.randn(C, T, generator=g)
    wave = torch.tensor([-0.1, -0.35, -0.8, -1.0, -0.7, -0.2, 0.25, 0.4, 0.3, 0.15, 0.05])
    n_spikes = max(6, C * T // 400)
    t0 = torch.randint(0, T - wave.numel(), (n_spikes,), generator=g)
    c0 = torch.randint(0, C, (n_spikes,), generator=g)
    amp = 5.0 + 15.0 * torch.rand(n_spikes, generator=g)
    for dc in (-1, 0, 1):
        ch = (c0 + dc).clamp(0, C - 1)
        gain = amp * (1.0 if dc == 0 else 0.5)
        for j in range(wave.numel()):
            x.index_put_((ch, t0 + j), gain * wave[j], accumulate=True)
    med = x.median(dim=1, keepdim=True).values
    mad = (x - med).abs().median(dim=1).values / 0.6745
    thr = 6.0 * mad
    return x.to(dt).to(device), thr.to(dt).to(device)


def reference(x: torch.Tensor, thr: torch.Tensor) -> torch.Tensor:
    C, T = x.shape
    peak = torch.zeros(C, T, dtype=torch.bool, device=x.device)
    if T <= 2 * RADIUS:
        return peak.to(torch.int8)
    mid = x[:, RADIUS:T - RADIUS]
    ok = mid < -thr[:, None]
    for k in range(1, RADIUS + 1):
        ok &= mid < x[:, RADIUS - k:T - RADIUS - k]
        ok &= mid <= x[:, RADIUS + k:T - RADIUS + k]
    peak[:, RADIUS:T - RADIUS] = ok
    return peak.to(torch.int8)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 5 * s["C"] * s["T"] + 4 * s["C"], "flops": (2 * RADIUS + 1) * s["C"] * s["T"]}
