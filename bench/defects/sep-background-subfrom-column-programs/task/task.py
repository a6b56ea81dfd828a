"""Background map evaluation and subtraction of sep / SExtractor (Background.back(), .rms(), .subfrom()).

The background was estimated on a grid of bw x bh pixel meshes (ny = ceil(H / bh) rows by
nx = ceil(W / bw) columns of mesh values for the sky level and its rms). To subtract it, the mesh
grid is interpolated to every pixel, here bilinearly between mesh centres (LSST afw Background with
interpStyle LINEAR) and held constant beyond the outermost centres:

    u = clamp((x + 0.5) / bw - 0.5, 0, nx - 1),  i0 = floor(u), i1 = min(i0 + 1, nx - 1), tx = u - i0
    v = clamp((y + 0.5) / bh - 0.5, 0, ny - 1),  j0 = floor(v), j1 = min(j0 + 1, ny - 1), ty = v - j0
    back(y, x) = (1-ty) * ((1-tx) B[j0,i0] + tx B[j0,i1]) + ty * ((1-tx) B[j1,i0] + tx B[j1,i1])

and the same for the rms map. Returns (image - back [H, W] fp32, rms map [H, W] fp32).
"""
import torch
import torch.nn.functional as F

META = {
    "name": "background_subtract",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-5}},
    "sizes": {
        "small": {"H": 40, "W": 36, "mesh": 8},
        "ragged": {"H": 45, "W": 29, "mesh": 8},
        "large": {"H": 10000, "W": 10000, "mesh": 64},
    },
    "baseline_notes": "One launch, grid (H, cdiv(W, 256)): each program takes one image row and a block of "
                      "256 columns; the row's mesh bracket and weight are scalars, the column brackets a "
                      "vector; four gathers from each (small, cached) mesh grid, one load of the image and "
                      "two stores per pixel. 4 warps, no autotune.",
    "deterministic": True,
}
SKY = 850.0      # ADU
SKY_RMS = 22.0   # ADU


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """image [H, W], back mesh [ny, nx], rms mesh [ny, nx], bw (int), bh (int)."""
    s = META["sizes"][size]
    H, W, m = s["H"], s["W"], s["mesh"]
    ny, nx = -(-H // m), -(-W // m)
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    yy = torch.arange(H, dtype=torch.float32)[:, None] / H
    xx = torch.arange(W, dtype=torch.float32)[None, :] / W
    sky = SKY * (1.0 + 0.08 * xx - 0.05 * yy + 0.03 * torch.sin(6.0 * xx + 4.0 * yy))
    n_src = max(3, H * W // 5000)
    src = torch.zeros(H, W)
    src.index_put_((torch.randint(0, H, (n_src,), generator=g), torch.randint(0, W, (n_src,), generator=g)),
                   120.0 * (1.0 - torch.rand(n_src, generator=g)) ** (-1.3), accumulate=True)
    r = torch.arange(11, dtype=torch.float32) - 5.0
    psf = torch.exp(-0.5 * (r / 1.5) ** 2)
    psf = psf / psf.sum()
    src = F.conv2d(src[None, None], psf.view(1, 1, 11, 1), padding=(5, 0))
    src = F.conv2d(src, psf.view(1, 1, 1, 11), padding=(0, 5))[0, 0]
    image = sky + src + SKY_RMS * torch.randn(H, W, generator=g)
    # mesh estimates: the sky at the mesh centres plus estimation noise
    cy = ((torch.arange(ny, dtype=torch.float32) + 0.5) * m).clamp(max=H - 1)
    cx = ((torch.arange(nx, dtype=torch.float32) + 0.5) * m).clamp(max=W - 1)
    back = sky[cy.long()][:, cx.long()] + 0.5 * torch.randn(ny, nx, generator=g)
    rms = SKY_RMS * (1.0 + 0.02 * torch.randn(ny, nx, generator=g))
    return (image.to(device=device, dtype=dt), back.to(device=device, dtype=dt),
            rms.to(device=device, dtype=dt), m, m)


def _bracket(n_pix: int, size: int, n_mesh: int, device) -> tuple:
    u = ((torch.arange(n_pix, dtype=torch.float64, device=device) + 0.5) / size - 0.5).clamp(0.0, n_mesh - 1.0)
    i0 = u.floor().long()
    return i0, (i0 + 1).clamp(max=n_mesh - 1), u - i0


def reference(image: torch.Tensor, back: torch.Tensor, rms: torch.Tensor, bw: int, bh: int) -> tuple:
    H, W = image.shape
    ny, nx = back.shape
    i0, i1, tx = _bracket(W, bw, nx, image.device)
    j0, j1, ty = _bracket(H, bh, ny, image.device)
    tx, ty = tx[None, :], ty[:, None]

    def interp(mesh):
        m = mesh.double()
        top = (1 - tx) * m[j0][:, i0] + tx * m[j0][:, i1]
        bot = (1 - tx) * m[j1][:, i0] + tx * m[j1][:, i1]
        return (1 - ty) * top + ty * bot

    return (image.double() - interp(back)).to(image.dtype), interp(rms).to(image.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["H"] * s["W"]
    return {"bytes": 12 * n, "flops": 20 * n}
