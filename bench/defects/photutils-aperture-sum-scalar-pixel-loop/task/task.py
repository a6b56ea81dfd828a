"""Circular-aperture photometry (photutils.aperture.aperture_photometry with CircularAperture(positions, r),
method='center', error=err).

Pixel (col j, row i) has its centre at (x, y) = (j, i) (photutils' convention) and belongs to the aperture of
a source at (cx, cy) when (j - cx)^2 + (i - cy)^2 < r^2; pixels outside the image contribute nothing
(apertures may hang over the edge). Per source
    aperture_sum     = sum over the aperture of data
    aperture_sum_err = sqrt(sum over the aperture of err^2)
Returns (aperture_sum [N] fp32, aperture_sum_err [N] fp32). Source positions are catalogue centroids
rounded to 1/64 pixel, so the membership test is exact in fp32.
"""
import math

import torch
import torch.nn.functional as F

META = {
    "name": "aperture_photometry_center",
    "level": 2,
    "category": "astronomy-image",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-4}},
    "sizes": {
        "small": {"H": 64, "W": 80, "N": 24, "r": 5.0},
        "ragged": {"H": 75, "W": 97, "N": 37, "r": 4.5},
        "large": {"H": 4096, "W": 4096, "N": 50000, "r": 7.0},
    },
    "baseline_notes": "One program per source (4 warps) loads the square of side next_pow2(2*ceil(r)+1) around "
                      "the nearest pixel as one masked 2-D tile of data and of err, masks it with the centre "
                      "test and the image bounds, and reduces both with tl.sum. No autotune.",
    "deterministic": True,
}
GAIN = 2.0      # e-/ADU
READ_NOISE = 6.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Science image [H, W], its 1-sigma error map [H, W], source positions [N, 2] (x, y) and the radius."""
    s = META["sizes"][size]
    h, w, n, r = s["H"], s["W"], s["N"], s["r"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # sources: mostly inside, some hanging over the edges
    pos = torch.rand(n, 2, generator=g) * torch.tensor([w + 6.0, h + 6.0]) - 3.0
    pos = torch.round(pos * 64.0) / 64.0
    flux = 200.0 * (1.0 + 50.0 * torch.rand(n, generator=g) ** 4)
    # render the stars with a Gaussian PSF (sigma 1.8 px) at their nearest pixel
    impulses = torch.zeros(h, w)
    ix = pos[:, 0].round().long().clamp(0, w - 1)
    iy = pos[:, 1].round().long().clamp(0, h - 1)
    impulses.index_put_((iy, ix), flux, accumulate=True)
    k = torch.arange(-6, 7, dtype=torch.float32)
    psf1 = torch.exp(-0.5 * (k / 1.8) ** 2)
    psf = psf1[:, None] * psf1[None, :]
    psf = psf / psf.sum()
    stars = F.conv2d(impulses[None, None], psf[None, None], padding=6)[0, 0]
    sky = 120.0
    model = sky + stars
    data = model + torch.randn(h, w, generator=g) * torch.sqrt(READ_NOISE ** 2 + model / GAIN)
    err = torch.sqrt(READ_NOISE ** 2 + data.clamp(min=0.0) / GAIN)
    return (data.to(device=device, dtype=dt), err.to(device=device, dtype=dt),
            pos.to(device=device, dtype=dt), float(r))


def reference(data: torch.Tensor, err: torch.Tensor, positions: torch.Tensor, r: float) -> tuple:
    h, w = data.shape
    R = math.ceil(r)
    d = data.double()
    e2 = err.double() ** 2
    pos = positions.double()
    off = torch.arange(-R, R + 1, device=data.device)
    sums, errs = [], []
    for start in range(0, pos.shape[0], 4096):
        p = pos[start:start + 4096]
        ix = torch.floor(p[:, 0] + 0.5).long()
        iy = torch.floor(p[:, 1] + 0.5).long()
        px = ix[:, None, None] + off[None, None, :]
        py = iy[:, None, None] + off[None, :, None]
        dist2 = (px - p[:, 0, None, None]) ** 2 + (py - p[:, 1, None, None]) ** 2
        inside = (dist2 < r * r) & (px >= 0) & (px < w) & (py >= 0) & (py < h)
        flat = (py.clamp(0, h - 1) * w + px.clamp(0, w - 1)).reshape(p.shape[0], -1)
        m = inside.reshape(p.shape[0], -1)
        sums.append(torch.where(m, d.reshape(-1)[flat], 0.0).sum(1))
        errs.append(torch.where(m, e2.reshape(-1)[flat], 0.0).sum(1).sqrt())
    return torch.cat(sums).to(data.dtype), torch.cat(errs).to(data.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    box = 2 * math.ceil(s["r"]) + 1
    return {"bytes": s["N"] * (8 * box * box + 16), "flops": s["N"] * box * box * 8}
