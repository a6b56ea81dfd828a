"""Inverse-variance weighted coaddition of reprojected exposures (reproject.mosaicking.reproject_and_coadd,
combine_function='mean', with per-pixel inverse-variance weights as input_weights).

Each of n_exp exposures has already been reprojected onto the common output grid [H, W]; pixels outside an
exposure's footprint carry weight 0 (reproject returns NaN there; the pipeline has replaced it with 0 before
the combine). Per output pixel
    coadd = sum_e w_e * x_e / sum_e w_e      (0 where sum_e w_e == 0)
    weight = sum_e w_e                       (the coadd's inverse-variance map)
Returns (coadd [H, W] fp32, weight [H, W] fp32).
"""
import torch

META = {
    "name": "ivar_coadd",
    "level": 1,
    "category": "astronomy-image",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"n_exp": 4, "H": 48, "W": 64},
        "ragged": {"n_exp": 3, "H": 37, "W": 53},
        "large": {"n_exp": 12, "H": 4096, "W": 4096},
    },
    "baseline_notes": "One launch over the output pixels (BLOCK=1024, 4 warps); each program walks the exposure "
                      "axis, keeps sum w*x and sum w in registers and writes the normalised coadd and the weight "
                      "map once. No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Reprojected exposures [n_exp, H, W] and their inverse-variance maps [n_exp, H, W] (0 off footprint)."""
    s = META["sizes"][size]
    n_exp, h, w = s["n_exp"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    yy = torch.arange(h, dtype=torch.float32)[:, None]
    xx = torch.arange(w, dtype=torch.float32)[None, :]
    sky = 200.0 + 15.0 * torch.sin(xx / (0.37 * w + 1.0)) * torch.cos(yy / (0.29 * h + 1.0))
    images = torch.empty(n_exp, h, w)
    weights = torch.empty(n_exp, h, w)
    for e in range(n_exp):
        noise_sigma = 4.0 + 4.0 * torch.rand(1, generator=g).item()
        # per-pixel variance: sky noise plus a mild flat-field / vignetting pattern
        var = (noise_sigma * (1.0 + 0.2 * torch.rand(h, w, generator=g))) ** 2
        img = sky + torch.randn(h, w, generator=g) * var.sqrt()
        # dithered footprint: each exposure misses a border strip of the output grid
        dx = int(torch.randint(0, max(1, w // 8), (1,), generator=g))
        dy = int(torch.randint(0, max(1, h // 8), (1,), generator=g))
        inside = torch.zeros(h, w, dtype=torch.bool)
        inside[dy:dy + h - h // 8, dx:dx + w - w // 8] = True
        images[e] = torch.where(inside, img, torch.zeros(()))
        weights[e] = torch.where(inside, 1.0 / var, torch.zeros(()))
    return images.to(device=device, dtype=dt), weights.to(device=device, dtype=dt)


def reference(images: torch.Tensor, weights: torch.Tensor) -> tuple:
    x, w = images.double(), weights.double()
    wsum = w.sum(0)
    num = (w * x).sum(0)
    coadd = torch.where(wsum > 0, num / wsum.clamp(min=1e-300), torch.zeros_like(num))
    return coadd.to(images.dtype), wsum.to(weights.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    npix = s["H"] * s["W"]
    return {"bytes": (8 * s["n_exp"] + 8) * npix, "flops": 2 * s["n_exp"] * npix}
