"""Classic STA/LTA characteristic function of a seismic network (ObsPy obspy.signal.trigger.classic_sta_lta).

For every channel c and sample i of the squared trace, with window sums
    S_w(c, i) = sum_{j = i - w + 1}^{i} a[c, j]^2        (samples before the trace start count as 0)
the characteristic function is
    cft[c, i] = (S_nsta(c, i) / nsta) / max(S_nlta(c, i) / nlta, tiny)   for i >= nlta - 1
    cft[c, i] = 0                                                          for i <  nlta - 1
exactly as ObsPy's classic_sta_lta (cumulative-sum form, leading nlta - 1 samples zeroed, LTA clipped
to the smallest normal float). The trigger on/off thresholds (trigger_onset, coincidence_trigger)
run on cft afterwards, outside this kernel.
"""
import math

import torch

META = {
    "name": "classic_sta_lta",
    "level": 2,
    "category": "sliding-window",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"C": 3, "N": 1500, "nsta": 20, "nlta": 200},
        "ragged": {"C": 5, "N": 2333, "nsta": 17, "nlta": 151},
        "large": {"C": 256, "N": 360000, "nsta": 100, "nlta": 1000},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over (channel, 2048-sample block) items; "
                      "each block gets its STA and LTA window sums as the sums of the nsta / nlta samples "
                      "before the block (whole-tile loads and one reduction) plus a running cumsum of "
                      "a[i]^2 - a[i-w]^2 inside the block; one contiguous store per block, no autotune.",
    "deterministic": True,
}
TINY = 1.1754943508222875e-38  # smallest normal fp32, ObsPy's dtiny for the kernel's dtype


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Traces a [C, N] (broadband noise with a few local events), nsta and nlta in samples."""
    s = META["sizes"][size]
    C, N = s["C"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    a = torch.randn(C, N, generator=g) * (0.5 + torch.rand(C, 1, generator=g))
    n_events = max(1, N // 3000)
    decay = max(20.0, 0.02 * N / n_events)
    for _ in range(n_events):
        onset = int(torch.randint(0, N, (1,), generator=g))
        amp = 2.0 + 6.0 * torch.rand(C, 1, generator=g)
        lag = torch.arange(min(N - onset, int(10 * decay)), dtype=torch.float32)
        burst = torch.exp(-lag / decay) * torch.sin(2.0 * math.pi * lag / 12.5)
        a[:, onset:onset + lag.numel()] += amp * burst
    return a.to(dt).to(device), s["nsta"], s["nlta"]


def reference(a: torch.Tensor, nsta: int, nlta: int) -> torch.Tensor:
    x = a.double()
    cs = torch.cumsum(x * x, dim=-1)
    sta = cs.clone()
    sta[:, nsta:] = cs[:, nsta:] - cs[:, :-nsta]
    sta /= nsta
    lta = cs.clone()
    lta[:, nlta:] = cs[:, nlta:] - cs[:, :-nlta]
    lta /= nlta
    sta[:, :nlta - 1] = 0.0
    lta = lta.clamp(min=TINY)
    return (sta / lta).to(a.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["C"] * s["N"]
    return {"bytes": 8 * n, "flops": 10 * n}
