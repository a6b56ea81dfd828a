"""Phase-only spectral whitening of ambient-noise windows (NoisePy noise_module.whiten, freq_norm="phase_only").

NoisePy cuts a station-day into overlapping windows (cc_len = 1800 s, step = 450 s -> 188 windows per
component at 20 Hz), Fourier-transforms every window (Nfft = next_fast_len(npts)) and keeps the first
Nfft // 2 bins. whiten() then replaces each bin by its unit phasor inside the pass band and shapes the band
edges with cosine-squared tapers of Napod bins:

    J = bins with freqmin <= f <= freqmax;  low = max(J[0] - Napod, 1), left = J[0], right = J[-1],
    high = min(J[-1] + Napod, Nfft // 2)
    wt[k] = 0                                        k < low or k >= high
          = cos(linspace(pi/2, pi, left - low))^2    low <= k < left
          = 1                                        left <= k < right
          = cos(linspace(0, pi/2, high - right))^2   right <= k < high
    out[w, k] = wt[k] * exp(1j * angle(X[w, k]))     (angle(0) = 0, so a zero bin becomes wt[k] + 0j)

The spectra are planar fp32 (real and imaginary parts in separate [rows, F] arrays); the taper wt [F] is
built once on the host. Returns (out_re, out_im), each [rows, F] fp32.
"""
import math

import torch

META = {
    "name": "noisepy_whiten_phase_only",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"rows": 6, "npts": 512, "fs": 20.0, "freqmin": 0.05, "freqmax": 2.0, "napod": 16},
        "ragged": {"rows": 5, "npts": 746, "fs": 20.0, "freqmin": 0.05, "freqmax": 2.0, "napod": 20},
        # one 3-component station-day: 3 x 188 windows of 1800 s at 20 Hz, Nfft = 36000 -> 18000 bins
        "large": {"rows": 564, "npts": 36000, "fs": 20.0, "freqmin": 0.05, "freqmax": 2.0, "napod": 100},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over (window row, 2048-bin column block) tiles: "
                      "contiguous loads of the real and imaginary parts and of the taper slice, amplitude, "
                      "phasor times taper, two contiguous stores; no autotune.",
    "deterministic": True,
}


def taper_weights(npts: int, fs: float, freqmin: float, freqmax: float, napod: int) -> torch.Tensor:
    """NoisePy whiten()'s band weights over the first npts // 2 bins (fp64)."""
    nf = npts // 2
    freq = torch.arange(nf, dtype=torch.float64) * fs / npts
    J = torch.nonzero((freq >= freqmin) & (freq <= freqmax)).flatten()
    low = max(int(J[0]) - napod, 1)
    left, right = int(J[0]), int(J[-1])
    high = min(int(J[-1]) + napod, nf)
    wt = torch.zeros(nf, dtype=torch.float64)
    wt[low:left] = torch.cos(torch.linspace(math.pi / 2, math.pi, left - low, dtype=torch.float64)) ** 2
    wt[left:right] = 1.0
    wt[right:high] = torch.cos(torch.linspace(0.0, math.pi / 2, high - right, dtype=torch.float64)) ** 2
    return wt


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Window spectra re, im [rows, npts // 2] and the taper wt [npts // 2]."""
    s = META["sizes"][size]
    rows, npts = s["rows"], s["npts"]
    nf = npts // 2
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    f = torch.arange(nf, dtype=torch.float64) * s["fs"] / npts
    # ambient-noise amplitude spectrum: secondary microseism peak near 0.15 Hz over a red background
    shape = 1.0 / (1.0 + 5.0 * f) + 4.0 * torch.exp(-((f - 0.15) / 0.05) ** 2)
    amp = shape[None, :] * (0.5 + torch.rand(rows, nf, generator=g, dtype=torch.float64))
    phase = (torch.rand(rows, nf, generator=g, dtype=torch.float64) * 2.0 - 1.0) * math.pi
    re, im = amp * torch.cos(phase), amp * torch.sin(phase)
    re[:, 0], im[:, 0] = 0.0, 0.0           # a demeaned window has no DC
    wt = taper_weights(npts, s["fs"], s["freqmin"], s["freqmax"], s["napod"])
    return re.to(dt).to(device), im.to(dt).to(device), wt.to(dt).to(device)


def reference(re: torch.Tensor, im: torch.Tensor, wt: torch.Tensor) -> tuple:
    x, y, w = re.double(), im.double(), wt.double()
    amp = torch.sqrt(x * x + y * y)
    nz = amp > 0
    safe = torch.where(nz, amp, torch.ones_like(amp))
    ur = torch.where(nz, x / safe, torch.ones_like(x))
    ui = torch.where(nz, y / safe, torch.zeros_like(y))
    return (w[None, :] * ur).to(re.dtype), (w[None, :] * ui).to(re.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["rows"] * (s["npts"] // 2)
    return {"bytes": 16 * n + 4 * (s["npts"] // 2), "flops": 9 * n}
