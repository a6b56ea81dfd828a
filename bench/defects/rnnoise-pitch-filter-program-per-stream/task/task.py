"""RNNoise pitch_filter() (denoise.c): comb filtering of the frame spectrum with the pitch-delayed spectrum.

Per 10 ms frame (48 kHz, WINDOW_SIZE 960, FREQ_SIZE 481 bins) of each stream, with the 22 Bark bands of
eband5ms (edges << FRAME_SIZE_SHIFT = 0, 4, 8, ..., 400 bins) and their triangular interpolation:

  r_i   = 1 if Exp_i > g_i else Exp_i^2 (1 - g_i^2) / (0.001 + g_i^2 (1 - Exp_i^2));
  r_i   = sqrt(clamp(r_i, 0, 1)) * sqrt(Ex_i / (1e-8 + Ep_i))
  X    += interp_band_gain(r) * P                       (per bin, 0 above bin 400)
  newE  = compute_band_energy(X)                        (first and last band doubled)
  X    *= interp_band_gain(sqrt(Ex / (1e-8 + newE)))    (bins >= 400 end up 0, as in RNNoise)

X, P: [B, T, 481, 2] fp32 (view_as_real of the frame and pitch spectra); Ex, Ep: band energies of X and
P, Exp: normalised band correlation Exp / sqrt(0.001 + Ex Ep) (compute_frame_features); g: the network's
band gains; all [B, T, 22]. eband: int32 [22] band edges in bins. Returns the filtered X [B, T, 481, 2].
"""
import torch

META = {
    "name": "rnnoise_pitch_filter",
    "level": 2,
    "category": "speech_enhancement",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "T": 6},
        "ragged": {"B": 3, "T": 5},
        "large": {"B": 16, "T": 2000},
    },
    "baseline_notes": "One program per frame (B*T programs, 16 warps): the 481 bins in one 512-wide tile, the "
                      "22 bands in a 32-wide one; the triangular band weights are a [512, 32] one-hot-weighted "
                      "tile, band-to-bin interpolation and bin-to-band energies are reductions of it.",
    "deterministic": True,
}
FREQ_SIZE = 481
EBAND5MS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 34, 40, 48, 60, 78, 100]
FRAME_SIZE_SHIFT = 2


def band_weights(eband: list[int], n_freq: int) -> torch.Tensor:
    """w[j, i]: weight of bin j in band i (interp_band_gain / compute_band_energy's triangles)."""
    w = torch.zeros(n_freq, len(eband), dtype=torch.float64)
    for i in range(len(eband) - 1):
        size = eband[i + 1] - eband[i]
        for j in range(size):
            frac = j / size
            w[eband[i] + j, i] = 1.0 - frac
            w[eband[i] + j, i + 1] = frac
    return w


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    s = META["sizes"][size]
    b, t = s["B"], s["T"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    eband = [e << FRAME_SIZE_SHIFT for e in EBAND5MS]
    scale = 1.0 / (1.0 + torch.arange(FREQ_SIZE, dtype=torch.float64) / 24.0)
    x = torch.randn(b, t, FREQ_SIZE, 2, generator=g, dtype=torch.float64) * scale[:, None]
    p = 0.7 * x + 0.5 * torch.randn(b, t, FREQ_SIZE, 2, generator=g, dtype=torch.float64) * scale[:, None]
    x, p = x.to(dt), p.to(dt)
    w = band_weights(eband, FREQ_SIZE)
    edge = torch.ones(len(eband), dtype=torch.float64)
    edge[0] = edge[-1] = 2.0
    xd, pd = x.double(), p.double()
    ex = (xd.pow(2).sum(-1) @ w) * edge
    ep = (pd.pow(2).sum(-1) @ w) * edge
    exp = ((xd * pd).sum(-1) @ w) * edge
    exp = exp / torch.sqrt(0.001 + ex * ep)
    gains = 0.05 + 0.95 * torch.rand(b, t, len(eband), generator=g, dtype=torch.float64)
    to = dict(device=device, dtype=dt)
    return (x.to(device), p.to(device), ex.to(**to), ep.to(**to), exp.to(**to), gains.to(**to),
            torch.tensor(eband, dtype=torch.int32, device=device))


def reference(x: torch.Tensor, p: torch.Tensor, ex: torch.Tensor, ep: torch.Tensor, exp: torch.Tensor,
              g: torch.Tensor, eband: torch.Tensor) -> torch.Tensor:
    w = band_weights(eband.tolist(), x.shape[2]).to(x.device)
    xc = torch.view_as_complex(x.double().contiguous())
    pc = torch.view_as_complex(p.double().contiguous())
    ex, ep, exp, g = ex.double(), ep.double(), exp.double(), g.double()
    r = torch.where(exp > g, torch.ones_like(exp), exp ** 2 * (1 - g ** 2) / (0.001 + g ** 2 * (1 - exp ** 2)))
    r = torch.sqrt(r.clamp(0.0, 1.0)) * torch.sqrt(ex / (1e-8 + ep))
    xc = xc + (r @ w.T) * pc
    new_e = xc.abs().pow(2) @ w
    new_e[..., 0] *= 2.0
    new_e[..., -1] *= 2.0
    xc = xc * (torch.sqrt(ex / (1e-8 + new_e)) @ w.T)
    return torch.view_as_real(xc).to(x.dtype).contiguous()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    frames = s["B"] * s["T"]
    return {"bytes": frames * (3 * FREQ_SIZE * 8 + 4 * 22 * 4), "flops": frames * 6 * 512 * 32}
