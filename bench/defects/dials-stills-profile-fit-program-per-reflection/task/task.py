"""Profile-fitted integration of still-shot shoeboxes (DIALS ProfileFitter, the iteratively reweighted
least-squares fit used by dials.integrate / dials.ssx_integrate, here on 9 x 9 pixel 2-D shoeboxes).

For each reflection r with pixel counts c, modelled background b, normalised reference profile p
(sum p = 1 over the foreground) and foreground mask m (1 = valid foreground pixel):

    I_0     = sum m (c - b)                                   (summation intensity, starting value)
    repeat N_ITER = 10 times:
        v   = b + max(I, 0) p                                 (Poisson variance of each pixel)
        I   = sum m p (c - b) / v  /  sum m p^2 / v
    var(I)  = 1 / sum m p^2 / v                               (v at the final I)

Returns (I fp32 [n_refl], var(I) fp32 [n_refl]).
"""
import torch

META = {
    "name": "profile_fit_stills",
    "level": 2,
    "category": "crystallography",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-3}},
    "sizes": {
        "small": {"n_refl": 24, "pixels": 81},
        "ragged": {"n_refl": 37, "pixels": 81},
        "large": {"n_refl": 1048576, "pixels": 81},
    },
    "baseline_notes": "Grid over blocks of 16 reflections; each program loads a [16, 128] tile of counts, "
                      "background, profile and mask (81 of 128 columns valid), keeps it in registers for the 10 "
                      "reweighting iterations (two row reductions each, along the contiguous pixel axis) and "
                      "stores I and var(I). 4 warps, no autotune.",
    "deterministic": True,
}
N_ITER = 10
SHOEBOX = 9  # 9 x 9 pixels


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """counts, background, profile fp32 [n_refl, 81]; mask uint8 [n_refl, 81]."""
    s = META["sizes"][size]
    n = s["n_refl"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    ax = torch.arange(SHOEBOX, dtype=torch.float64) - (SHOEBOX - 1) / 2
    yy, xx = torch.meshgrid(ax, ax, indexing="ij")
    # Per-reflection elliptical Gaussian spot, centred within half a pixel of the shoebox centre.
    cx = (torch.rand(n, 1, 1, generator=g, dtype=torch.float64) - 0.5)
    cy = (torch.rand(n, 1, 1, generator=g, dtype=torch.float64) - 0.5)
    sx = 0.9 + 0.6 * torch.rand(n, 1, 1, generator=g, dtype=torch.float64)
    sy = 0.9 + 0.6 * torch.rand(n, 1, 1, generator=g, dtype=torch.float64)
    r2 = ((xx - cx) / sx) ** 2 + ((yy - cy) / sy) ** 2
    fg = r2 <= 9.0                                              # 3-sigma foreground ellipse
    valid = torch.rand(n, SHOEBOX, SHOEBOX, generator=g) > 0.02  # a few hot / module-gap pixels
    mask = fg & valid
    prof = torch.exp(-0.5 * r2) * mask
    prof = prof / prof.sum((1, 2), keepdim=True).clamp(min=1e-12)
    bg_level = 0.5 + 4.0 * torch.rand(n, 1, 1, generator=g, dtype=torch.float64)
    bg = bg_level + 0.05 * (xx + yy) * torch.rand(n, 1, 1, generator=g, dtype=torch.float64)
    bg = bg.clamp(min=0.5)
    intensity = -300.0 * torch.log(torch.rand(n, 1, 1, generator=g, dtype=torch.float64))  # Wilson-like
    expect = bg + intensity * prof
    counts = torch.poisson(expect, generator=g)
    flat = lambda t: t.reshape(n, SHOEBOX * SHOEBOX)
    return (flat(counts).to(device=device, dtype=dt), flat(bg).to(device=device, dtype=dt),
            flat(prof).to(device=device, dtype=dt), flat(mask).to(device=device, dtype=torch.uint8))


def reference(counts, background, profile, mask) -> tuple:
    c, b, p = counts.double(), background.double(), profile.double()
    m = mask.double()
    intensity = (m * (c - b)).sum(1)
    for _ in range(N_ITER):
        v = b + intensity.clamp(min=0.0)[:, None] * p
        intensity = (m * p * (c - b) / v).sum(1) / (m * p * p / v).sum(1)
    v = b + intensity.clamp(min=0.0)[:, None] * p
    var = 1.0 / (m * p * p / v).sum(1)
    return intensity.to(counts.dtype), var.to(counts.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": s["n_refl"] * (s["pixels"] * 13 + 8), "flops": s["n_refl"] * s["pixels"] * 8 * (N_ITER + 2)}
