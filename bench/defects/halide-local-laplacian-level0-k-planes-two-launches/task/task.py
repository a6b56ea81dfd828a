"""Local Laplacian filter, finest pyramid level (Halide apps/local_laplacian: outLPyramid[0] + outGPyramid[0]).

Inputs are the pipeline's state just before the last collapse step: the input luminance
gray = inGPyramid[0] [H, W] (0..1), the first level of the K processed Gaussian pyramids
gPyramid[1] [K, H2, W2] (H2 = (H + 1) // 2), the collapsed output of the coarser levels
outGPyramid[1] [H2, W2], the remap lookup table (Halide's remap(x) = alpha * fx * exp(-fx^2 / 2),
fx = x / 256, for x in -(K-1)*256 .. (K-1)*256, stored from index 0) and beta. Per pixel:

    level = gray * (K - 1);  li = clamp(int(level), 0, K - 2);  lf = level - li
    idx = clamp(int(level * 256), 0, (K - 1) * 256)
    g0(k) = beta * (gray - k / (K - 1)) + k / (K - 1) + remap[idx - 256 k]       (gPyramid[0])
    L(k) = g0(k) - upsample(gPyramid[1][k])                                       (lPyramid[0])
    out = upsample(outGPyramid[1]) + (1 - lf) * L(li) + lf * L(li + 1)

with Halide's upsample: upx(x) = 0.25 f(x // 2 - 1 + 2 (x % 2)) + 0.75 f(x // 2), then the same in
y, coordinates clamped to the level-1 grid. Returns outGPyramid[0], float32 [H, W].
"""
import torch
import torch.nn.functional as F

META = {
    "name": "local_laplacian_level0",
    "level": 2,
    "category": "computational_photography",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"H": 40, "W": 64, "K": 8},
        "ragged": {"H": 37, "W": 53, "K": 8},
        "large": {"H": 3024, "W": 4032, "K": 8},
    },
    "baseline_notes": "One program per 8x128 pixel block, 4 warps: the two processed levels that bracket each "
                      "pixel (li, li + 1) are evaluated where they are needed -- remap lookup, bilinear upsample "
                      "of those two gPyramid[1] planes and of outGPyramid[1] -- and the result is stored once. "
                      "No autotune.",
    "deterministic": True,
}


def _down(f: torch.Tensor) -> torch.Tensor:
    """Halide's downsample: [1 3 3 1] / 8 in x then y at stride 2, edges repeated. f [..., H, W]."""
    h, w = f.shape[-2:]
    h2, w2 = (h + 1) // 2, (w + 1) // 2
    x = torch.arange(w2, device=f.device)
    cx = [(2 * x + d).clamp(0, w - 1) for d in (-1, 0, 1, 2)]
    fx = (f[..., cx[0]] + 3.0 * (f[..., cx[1]] + f[..., cx[2]]) + f[..., cx[3]]) / 8.0
    y = torch.arange(h2, device=f.device)
    cy = [(2 * y + d).clamp(0, h - 1) for d in (-1, 0, 1, 2)]
    return (fx[..., cy[0], :] + 3.0 * (fx[..., cy[1], :] + fx[..., cy[2], :]) + fx[..., cy[3], :]) / 8.0


def _up(f: torch.Tensor, h: int, w: int) -> torch.Tensor:
    """Halide's upsample (bilinear 0.25 / 0.75) of f [..., H2, W2] to [..., h, w], edges repeated."""
    h2, w2 = f.shape[-2:]
    x = torch.arange(w, device=f.device)
    xa = (x // 2).clamp(max=w2 - 1)
    xb = (x // 2 - 1 + 2 * (x % 2)).clamp(0, w2 - 1)
    y = torch.arange(h, device=f.device)
    ya = (y // 2).clamp(max=h2 - 1)
    yb = (y // 2 - 1 + 2 * (y % 2)).clamp(0, h2 - 1)
    upx = 0.25 * f[..., xb] + 0.75 * f[..., xa]
    return 0.25 * upx[..., yb, :] + 0.75 * upx[..., ya, :]


def _g0(gray: torch.Tensor, lut: torch.Tensor, k, beta: float, n_levels: int) -> torch.Tensor:
    level = gray * float(n_levels - 1)
    idx = (level * 256.0).to(torch.int64).clamp(0, (n_levels - 1) * 256)
    lvl = k * (1.0 / (n_levels - 1))
    return beta * (gray - lvl) + lvl + lut[idx - 256 * k + (n_levels - 1) * 256]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """gray [H, W], gPyramid[1] [K, H2, W2], outGPyramid[1] [H2, W2], remap LUT [2 (K-1) 256 + 1], beta."""
    s = META["sizes"][size]
    h, w, n_levels = s["H"], s["W"], s["K"]
    g = torch.Generator().manual_seed(seed)
    coarse = F.interpolate(torch.rand(1, 1, h // 64 + 3, w // 64 + 3, generator=g), size=(h, w),
                           mode="bicubic", align_corners=False)
    mid = F.avg_pool2d(torch.rand(1, 1, h, w, generator=g), 7, stride=1, padding=3)
    fine = torch.rand(1, 1, h, w, generator=g)
    gray = (0.05 + 0.9 * coarse + 0.6 * (mid - 0.5) + 0.04 * (fine - 0.5))[0, 0].clamp(0.0, 1.0)
    gray = gray.to(device=device, dtype=torch.float32)
    alpha, beta = 1.0 / (n_levels - 1), 1.0
    fx = torch.arange(-(n_levels - 1) * 256, (n_levels - 1) * 256 + 1, device=device, dtype=torch.float32) / 256.0
    lut = alpha * fx * torch.exp(-fx * fx / 2.0)
    g1 = torch.stack([_down(_g0(gray, lut, k, beta, n_levels)) for k in range(n_levels)])
    # outGPyramid[1]: the coarser levels collapsed; here the level-1 interpolation itself
    in1 = _down(gray)
    level1 = in1 * float(n_levels - 1)
    li1 = level1.to(torch.int64).clamp(0, n_levels - 2)
    lf1 = level1 - li1
    out1 = (1.0 - lf1) * g1.gather(0, li1[None])[0] + lf1 * g1.gather(0, (li1 + 1)[None])[0]
    return gray, g1.contiguous(), out1.contiguous(), lut, beta


def reference(gray: torch.Tensor, g1: torch.Tensor, out1: torch.Tensor, lut: torch.Tensor, beta: float) -> torch.Tensor:
    n_levels = g1.shape[0]
    h, w = gray.shape
    level = gray * float(n_levels - 1)
    li = level.to(torch.int64).clamp(0, n_levels - 2)
    lf = level - li
    up1 = _up(g1, h, w)                                                            # [K, H, W]
    lap = torch.stack([_g0(gray, lut, k, beta, n_levels) for k in range(n_levels)]) - up1
    out_l = (1.0 - lf) * lap.gather(0, li[None])[0] + lf * lap.gather(0, (li + 1)[None])[0]
    return (_up(out1, h, w) + out_l).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    px = s["H"] * s["W"]
    return {"bytes": 4 * px * 2 + 4 * px // 4 * (2 + 1), "flops": 40 * px}
