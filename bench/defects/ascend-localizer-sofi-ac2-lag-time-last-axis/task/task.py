"""Second-order SOFI auto-cumulant with a time lag (Localizer's SOFICalculator_Order2_auto, Dertinger et al.,
PNAS 2009), over one block of frames of a blinking-fluorophore movie.

For every pixel r of a movie I[t, r] (T frames, fp32 counts) the kernel returns the average image and the
lagged auto-cumulant
    mean(r) = 1/T sum_t I[t, r]
    ac2(r)  = 1/(T - lag) sum_{t < T - lag} (I[t, r] - mean(r)) (I[t + lag, r] - mean(r))
A lag of one frame removes the shot-noise and read-noise contribution (uncorrelated between frames) and
keeps the blinking correlations, whose amplitude scales with the squared PSF: the SOFI image.
Returns (mean [H, W], ac2 [H, W]).
"""
import torch

META = {
    "name": "sofi_ac2_lag",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"T": 40, "H": 24, "W": 32, "lag": 1},
        "ragged": {"T": 37, "H": 19, "W": 27, "lag": 1},
        "large": {"T": 500, "H": 512, "W": 512, "lag": 1},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 256 pixels; each walks the "
                      "frames in [16, 256] tiles (16 frames x 256 contiguous pixels, 16 KiB DMAs): a first "
                      "pass accumulates the mean, a second the lagged centred products; the sums over time "
                      "are reductions over the tile's leading axis. No autotune.",
    "deterministic": True,
}
CELL = 8  # one emitter per 8 x 8 px cell


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """movie [T, H, W] (fp32 counts: background + blinking emitters + noise) and the lag in frames."""
    s = META["sizes"][size]
    t, h, w = s["T"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    ch, cw = -(-h // CELL), -(-w // CELL)
    ey = (torch.arange(ch) * CELL)[:, None] + 1.0 + torch.rand(ch, cw, generator=g) * (CELL - 2)
    ex = (torch.arange(cw) * CELL)[None, :] + 1.0 + torch.rand(ch, cw, generator=g) * (CELL - 2)
    yy, xx = torch.arange(h)[:, None], torch.arange(w)[None, :]
    cy, cx = yy // CELL, xx // CELL
    r2 = (yy - ey[cy, cx]) ** 2 + (xx - ex[cy, cx]) ** 2
    bright = 200.0 + 400.0 * torch.rand(ch, cw, generator=g)
    amp = (bright[cy, cx] * torch.exp(-r2 / (2 * 1.5 ** 2))).reshape(-1)
    label = (cy * cw + cx).reshape(-1)
    # two-state blinking: off -> on with p = 0.1, on -> off with p = 0.3 per frame (lag-1 correlation 0.6)
    u = torch.rand(t, ch * cw, generator=g)
    on = torch.empty(t, ch * cw)
    state = u[0] < 0.25
    for k in range(t):
        state = torch.where(state, u[k] >= 0.3, u[k] < 0.1) if k else state
        on[k] = state.float()
    signal = 100.0 + on[:, label] * amp
    movie = signal + signal.sqrt() * torch.randn(t, h * w, generator=g)
    return movie.reshape(t, h, w).to(dt).to(device), s["lag"]


def reference(movie: torch.Tensor, lag: int) -> tuple:
    x = movie.double()
    mean = x.mean(0)
    c = x - mean
    ac2 = (c[: x.shape[0] - lag] * c[lag:]).mean(0)
    return mean.to(movie.dtype), ac2.to(movie.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["T"] * s["H"] * s["W"]
    return {"bytes": 8 * n + 8 * s["H"] * s["W"], "flops": 5 * n}
