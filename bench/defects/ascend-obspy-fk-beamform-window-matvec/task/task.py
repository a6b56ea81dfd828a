"""Frequency-wavenumber beam power of a seismic array (ObsPy obspy.signal.array_analysis.array_processing,
method 0 = "bf", prewhiten = 0), evaluated for a batch of sliding windows at once.

For every window w, array_processing takes the rfft of each station's demeaned, tapered window and
keeps the NF bins n between frqlow and frqhigh: X[n, w, k] (K stations). The steering vectors of the
slowness grid (calcSteer, computed once up front: steer[n, sx, sy, k] with the plane-wave delays
sx * x_k + sy * y_k of the station coordinates) are E[n, s, k], the grid flattened to S = gx * gy points.
Since the cross-spectral matrix of one window is the rank-one R_n = X_n X_n^H, the beamformer's
e^H R_n e is the squared modulus of the delay-and-sum beam, so
    abspow[w, s] = sum_n | sum_k E[n, s, k] * X[n, w, k] |^2
    dpow[w]      = K * sum_n sum_k |X[n, w, k]|^2
    relpow[w, s] = abspow[w, s] / dpow[w]                  (in [0, 1]; 1 for a perfectly coherent plane wave)
which is the relpow_map array_processing fills per window (the argmax over s and the back-azimuth /
slowness conversion follow outside the kernel). Complex spectra are split into fp32 real and imaginary
planes; returns relpow [W, S] fp32.
"""
import math

import torch

META = {
    "name": "fk_beam_power",
    "level": 3,
    "category": "beamforming",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"K": 10, "G": 9, "NF": 4, "W": 16},
        "ragged": {"K": 13, "G": 11, "NF": 5, "W": 37},
        "large": {"K": 64, "G": 201, "NF": 12, "W": 2048},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over (64 grid points x 64 windows) tiles, "
                      "slowness-block major so that consecutive tiles share the steering tiles in L2; per "
                      "frequency bin the beam is four [64, K] x [K, 64] tl.dot on the cube (real and imaginary "
                      "parts), squared and summed on the vector unit; one contiguous [64, 64] store; no autotune.",
    "deterministic": True,
}
FS = 40.0            # sampling rate, Hz
NLOW = 2             # first kept bin (frqlow = 1 Hz at deltaf = 0.625 Hz)
DELTAF = 0.625       # fs / nfft with win_len = 1 s (40 samples, nfft = 64)
SL_MAX = 3.0         # slowness grid -3 .. 3 s/km, as in ObsPy's FK tutorial


def _grid(G: int) -> tuple:
    s = torch.linspace(-SL_MAX, SL_MAX, G, dtype=torch.float64)
    sx = s[:, None].expand(G, G).reshape(-1)
    sy = s[None, :].expand(G, G).reshape(-1)
    return sx, sy


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """X_re, X_im [NF, W, K] (windowed spectra), E_re, E_im [NF, S, K] (steering vectors)."""
    p = META["sizes"][size]
    K, G, NF, W = p["K"], p["G"], p["NF"], p["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    xy = (torch.rand(K, 2, generator=g, dtype=torch.float64) - 0.5) * 3.0        # km, 3 km aperture
    xy -= xy.mean(dim=0)
    omega = 2.0 * math.pi * (NLOW + torch.arange(NF, dtype=torch.float64)) * DELTAF
    sx, sy = _grid(G)
    tshift = sx[:, None] * xy[None, :, 0] + sy[:, None] * xy[None, :, 1]             # [S, K] seconds
    steer = torch.exp(1j * omega[:, None, None] * tshift[None])                       # [NF, S, K]
    # a plane wave crossing the array with a slowness that drifts over the windows, plus station noise
    s0 = torch.tensor([0.9, -1.4], dtype=torch.float64) + 0.3 * torch.randn(W, 2, generator=g, dtype=torch.float64)
    delay = s0 @ xy.T                                                                   # [W, K]
    amp = torch.rand(NF, W, 1, generator=g, dtype=torch.float64) + 0.5
    phase = torch.rand(NF, W, 1, generator=g, dtype=torch.float64) * 2 * math.pi
    X = amp * torch.exp(1j * (phase - omega[:, None, None] * delay[None]))
    X = X + 0.4 * torch.complex(torch.randn(NF, W, K, generator=g, dtype=torch.float64),
                                torch.randn(NF, W, K, generator=g, dtype=torch.float64))
    planes = [X.real, X.imag, steer.real, steer.imag]
    return tuple(q.to(dt).contiguous().to(device) for q in planes)


def reference(x_re, x_im, e_re, e_im) -> torch.Tensor:
    X = torch.complex(x_re.double(), x_im.double())
    E = torch.complex(e_re.double(), e_im.double())
    K = X.shape[2]
    beam = torch.einsum("nsk,nwk->nws", E, X)
    abspow = (beam.real ** 2 + beam.imag ** 2).sum(dim=0)
    dpow = K * (X.real ** 2 + X.imag ** 2).sum(dim=(0, 2))
    return (abspow / dpow[:, None]).to(x_re.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    p = META["sizes"][size]
    S = p["G"] * p["G"]
    return {"bytes": 8 * p["NF"] * (p["W"] + S) * p["K"] + 4 * p["W"] * S,
            "flops": 8 * p["NF"] * p["W"] * S * p["K"]}
