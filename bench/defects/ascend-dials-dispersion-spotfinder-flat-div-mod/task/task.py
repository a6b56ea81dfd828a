"""Dispersion spot finding on one diffraction image (DIALS spotfinder.threshold.algorithm=dispersion).

For every pixel the valid pixels (value >= 0; Eiger module gaps read -1, bad pixels -2) of the
(2*KY+1) x (2*KX+1) window around it (DIALS kernel_size 3,3: a 7 x 7 window) give
    m = count, x = sum I, y = sum I^2,  mean = x / m,  var = (m*y - x^2) / (m*(m-1)).
DIALS calls the pixel strong when the window's index of dispersion var/mean exceeds
1 + sigma_b * sqrt(2 / (m - 1)) and the pixel exceeds mean + sigma_s * sqrt(mean) (gain 1). This
operator returns the two test statistics those thresholds are applied to, as fp32 maps:
    disp_t = (var / mean - 1) * sqrt((m - 1) / 2)     (compare with sigma_b = 6)
    sig_t  = (I - mean) / sqrt(mean)                  (compare with sigma_s = 3)
both 0 where the pixel itself is invalid, m < 2 (DIALS min_local) or the window sum is 0.
"""
import torch

META = {
    "name": "dispersion_spotfinder",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        # H x W pixels (slow, fast), module size and gap widths of the tiled detector, Bragg spots
        "small": {"H": 26, "W": 40, "mod_h": 10, "mod_w": 18, "gap_h": 3, "gap_w": 4, "spots": 6},
        "ragged": {"H": 37, "W": 53, "mod_h": 11, "mod_w": 16, "gap_h": 2, "gap_w": 3, "spots": 9},
        # Eiger2 XE 16M: 8 x 4 modules of 512 x 1028 pixels, 38-pixel and 12-pixel gaps
        "large": {"H": 4362, "W": 4148, "mod_h": 512, "mod_w": 1028, "gap_h": 38, "gap_w": 12,
                  "spots": 3000},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over 2-D tiles of 2048 pixels "
                      "(BH rows x BW <= 512 contiguous columns); the 49 window taps are shifted 2-D tile "
                      "loads under row/column bound masks, accumulating count, sum and sum of squares "
                      "in fp32; statistics and two stores per tile. KY = KX = 3, no autotune.",
    "deterministic": True,
}
KY = 3
KX = 3


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """image int32 [H, W] (photon counts; -1 in module gaps, -2 at bad pixels), KY, KX."""
    s = META["sizes"][size]
    h, w = s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    yy = torch.arange(h, dtype=torch.float32)[:, None]
    xx = torch.arange(w, dtype=torch.float32)[None, :]
    r = torch.sqrt((yy - 0.47 * h) ** 2 + (xx - 0.52 * w) ** 2) / max(h, w)
    rate = 0.4 + 2.5 * torch.exp(-((r - 0.25) / 0.12) ** 2) + 0.8 * torch.exp(-r / 0.05)  # solvent ring
    rate = rate.expand(h, w).clone()
    n = s["spots"]
    cy = torch.randint(0, h, (n,), generator=g)
    cx = torch.randint(0, w, (n,), generator=g)
    peak = 10.0 ** (1.0 + 2.5 * torch.rand(n, generator=g))
    for dy in range(-3, 4):
        for dx in range(-3, 4):
            py, px = cy + dy, cx + dx
            ok = (py >= 0) & (py < h) & (px >= 0) & (px < w)
            rate.index_put_((py[ok], px[ok]), peak[ok] * torch.exp(torch.tensor(-(dy * dy + dx * dx) / 2.0)),
                            accumulate=True)
    img = torch.poisson(rate, generator=g).to(torch.int32)
    rows = torch.arange(h) % (s["mod_h"] + s["gap_h"]) >= s["mod_h"]
    cols = torch.arange(w) % (s["mod_w"] + s["gap_w"]) >= s["mod_w"]
    img[rows[:, None] | cols[None, :]] = -1
    bad = torch.rand(h, w, generator=g) < 2e-4
    img[bad] = -2
    return img.to(device), KY, KX


def reference(image: torch.Tensor, ky: int, kx: int) -> tuple:
    v = image.double()
    good = (v >= 0).double()
    val = v * good
    h, w = v.shape
    kh, kw = 2 * ky + 1, 2 * kx + 1
    pad = lambda t: torch.nn.functional.pad(t[None, None], (kx, kx, ky, ky))
    box = lambda t: torch.nn.functional.avg_pool2d(pad(t), (kh, kw), stride=1, divisor_override=1)[0, 0]
    m, x, y = box(good), box(val), box(val * val)
    ok = (good > 0) & (m >= 2) & (x > 0)
    ms, xs = torch.where(ok, m, 2.0), torch.where(ok, x, 1.0)
    mean = xs / ms
    var = (ms * y - xs * xs) / (ms * (ms - 1))
    disp_t = (var / mean - 1.0) * torch.sqrt((ms - 1) * 0.5)
    sig_t = (v - mean) / torch.sqrt(mean)
    zero = torch.zeros_like(v)
    return (torch.where(ok, disp_t, zero).float(), torch.where(ok, sig_t, zero).float())


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["H"] * s["W"]
    taps = (2 * KY + 1) * (2 * KX + 1)
    return {"bytes": 4 * n + 8 * n, "flops": 6 * taps * n + 20 * n}
