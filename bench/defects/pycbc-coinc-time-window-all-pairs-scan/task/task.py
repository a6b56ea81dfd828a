"""Two-detector time coincidence of single-detector triggers (pycbc.events.coinc.time_coincidence, zero lag).

Triggers of one template (or template group) from two detectors, each list sorted by end time (GPS seconds,
fp64) with its matched-filter SNR. A trigger i of the first detector (H1) is coincident with a trigger j of the
second (L1) when |t1_i - t2_j| <= window (light travel time H1-L1, 10 ms, plus 5 ms of timing slop). For
every H1 trigger return the number of coincident L1 triggers (int32) and the best network statistic over
them, the quadrature sum snr1^2 + snr2^2 (fp32; 0 when it has no partner). The window is an fp32 kernel
scalar, so the reference compares against its fp32 value.
"""
import torch

META = {
    "name": "trigger_time_coincidence",
    "level": 2,
    "category": "search",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-5}},
    "sizes": {
        "small": {"N1": 300, "N2": 280, "duration": 200.0},
        "ragged": {"N1": 517, "N2": 433, "duration": 350.0},
        "large": {"N1": 131072, "N2": 122880, "duration": 86400.0},
    },
    "baseline_notes": "One program per block of 128 H1 triggers; two scalar binary searches over the sorted L1 "
                      "times give the L1 range [t_first - window, t_last + window] of the block, and only that "
                      "range is compared in [128, 128] tiles (count and max of snr1^2 + snr2^2 over |dt| <= window). "
                      "4 warps, no autotune.",
    "deterministic": True,
}
GPS_START = 1262304018.0
WINDOW = 0.015  # seconds: H1-L1 light travel time plus slop


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """t1 [N1] fp64 sorted, snr1 [N1], t2 [N2] fp64 sorted, snr2 [N2], window (float seconds)."""
    s = META["sizes"][size]
    n1, n2, dur = s["N1"], s["N2"], s["duration"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    t1 = torch.rand(n1, generator=g, dtype=torch.float64) * dur
    # a fifth of the L1 triggers follow an H1 trigger (signals, coincident glitches) within +-25 ms
    n_follow = n2 // 5
    src = torch.randint(0, n1, (n_follow,), generator=g)
    follow = t1[src] + (torch.rand(n_follow, generator=g, dtype=torch.float64) - 0.5) * 0.05
    t2 = torch.cat([follow, torch.rand(n2 - n_follow, generator=g, dtype=torch.float64) * dur])
    t1 = torch.sort(t1).values + GPS_START
    t2 = torch.sort(t2).values + GPS_START
    # SNRs above a threshold of 5.5 with a steep tail, as clustered single-detector triggers are
    snr1 = 5.5 + torch.empty(n1).exponential_(2.0, generator=g)
    snr2 = 5.5 + torch.empty(n2).exponential_(2.0, generator=g)
    return (t1.to(device), snr1.to(device=device, dtype=dt), t2.to(device), snr2.to(device=device, dtype=dt),
            WINDOW)


def reference(t1: torch.Tensor, snr1: torch.Tensor, t2: torch.Tensor, snr2: torch.Tensor, window: float) -> tuple:
    w = torch.tensor(window, dtype=torch.float32).double().item()
    # candidate L1 range from the sorted times (a little wider than the window), then the exact test
    lo = torch.searchsorted(t2, t1 - 2.0 * w, side="left")
    hi = torch.searchsorted(t2, t1 + 2.0 * w, side="right")
    count = torch.zeros(t1.shape[0], dtype=torch.int32, device=t1.device)
    best = torch.zeros(t1.shape[0], dtype=torch.float64, device=t1.device)
    s1 = snr1.double() ** 2
    s2 = snr2.double() ** 2
    width = int((hi - lo).max().item()) if t1.numel() else 0
    for k in range(width):
        j = lo + k
        jj = j.clamp(max=t2.shape[0] - 1)
        hit = (j < hi) & ((t1 - t2[jj]).abs() <= w)
        count += hit.to(torch.int32)
        best = torch.where(hit, torch.maximum(best, s1 + s2[jj]), best)
    return count, best.to(snr1.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 12 * (s["N1"] + s["N2"]) + 8 * s["N1"], "flops": 4 * s["N1"]}
