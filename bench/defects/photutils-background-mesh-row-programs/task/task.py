"""Background mesh statistics with sigma clipping (photutils.background.Background2D with box_size=BOX,
SigmaClip(sigma=3, maxiters=10, cenfunc='mean', stdfunc='std'), bkg_estimator=MeanBackground,
bkgrms_estimator=StdBackgroundRMS; SEP/SExtractor's background mesh with a sigma-clipped mean).

The image [H, W] is cut into boxes of BOX x BOX pixels (the last row / column of boxes keeps only the pixels
that exist). In each box, maxiters times: mean and std (ddof=0) of the pixels still kept, then every kept pixel
outside [mean - sigma*std, mean + sigma*std] is dropped for good (astropy's sigma_clip; once an iteration drops
nothing the bounds no longer change, so running all maxiters iterations equals astropy's early stop). The box's
background is the mean and its rms the std of the surviving pixels.
Returns (background [ny, nx] fp32, rms [ny, nx] fp32), ny = ceil(H / BOX), nx = ceil(W / BOX): the low-resolution
mesh that Background2D then filters and interpolates.
"""
import torch
import torch.nn.functional as F

META = {
    "name": "background_mesh_sigma_clip",
    "level": 2,
    "category": "astronomy-image",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 2e-3}},
    "sizes": {
        "small": {"H": 128, "W": 192, "box": 32},
        "ragged": {"H": 150, "W": 100, "box": 32},
        "large": {"H": 4096, "W": 4096, "box": 64},
    },
    "baseline_notes": "Grid (ny, nx): one program per box (8 warps) loads its BOX x BOX tile once, runs the "
                      "maxiters sigma-clip iterations on it in registers (masked tl.sum for count, mean and "
                      "variance) and writes the box's background and rms. No autotune.",
    "deterministic": True,
}
SIGMA = 3.0
MAXITERS = 10


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Sky image [H, W] (smooth background + noise + stars), box size, clip sigma and iteration count."""
    s = META["sizes"][size]
    h, w, box = s["H"], s["W"], s["box"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    yy = torch.arange(h, dtype=torch.float32)[:, None]
    xx = torch.arange(w, dtype=torch.float32)[None, :]
    sky = 1000.0 + 40.0 * torch.sin(xx / (0.31 * w)) + 25.0 * torch.cos(yy / (0.23 * h)) + 0.01 * (xx + yy)
    n_stars = max(4, h * w // 800)
    impulses = torch.zeros(h, w)
    iy = torch.randint(0, h, (n_stars,), generator=g)
    ix = torch.randint(0, w, (n_stars,), generator=g)
    flux = 300.0 * (1.0 + 200.0 * torch.rand(n_stars, generator=g) ** 6)
    impulses.index_put_((iy, ix), flux, accumulate=True)
    k = torch.arange(-5, 6, dtype=torch.float32)
    psf1 = torch.exp(-0.5 * (k / 1.5) ** 2)
    psf = psf1[:, None] * psf1[None, :]
    stars = F.conv2d(impulses[None, None], (psf / psf.sum())[None, None], padding=5)[0, 0]
    img = sky + stars + 12.0 * torch.randn(h, w, generator=g)
    return img.to(device=device, dtype=dt), box, SIGMA, MAXITERS


def reference(image: torch.Tensor, box: int, sigma: float, maxiters: int) -> tuple:
    h, w = image.shape
    ny, nx = -(-h // box), -(-w // box)
    padded = torch.zeros(ny * box, nx * box, dtype=torch.float64, device=image.device)
    valid = torch.zeros(ny * box, nx * box, dtype=torch.bool, device=image.device)
    padded[:h, :w] = image.double()
    valid[:h, :w] = True
    x = padded.reshape(ny, box, nx, box).permute(0, 2, 1, 3).reshape(ny, nx, box * box)
    keep = valid.reshape(ny, box, nx, box).permute(0, 2, 1, 3).reshape(ny, nx, box * box)

    def stats(keep):
        n = keep.sum(-1).clamp(min=1).double()
        mean = torch.where(keep, x, 0.0).sum(-1) / n
        var = torch.where(keep, (x - mean[..., None]) ** 2, 0.0).sum(-1) / n
        return mean, var.sqrt()

    for _ in range(maxiters):
        mean, std = stats(keep)
        lo = (mean - sigma * std)[..., None]
        hi = (mean + sigma * std)[..., None]
        keep = keep & (x >= lo) & (x <= hi)
    mean, std = stats(keep)
    return mean.to(image.dtype), std.to(image.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    npix = s["H"] * s["W"]
    return {"bytes": 4 * npix, "flops": (MAXITERS + 1) * 8 * npix}
