"""Bilateral filter of 8-bit grayscale frames (OpenCV cv::bilateralFilter, d = 9, BORDER_REFLECT_101).

out[p] = round( sum_q w_s(q - p) w_c(I[q] - I[p]) I[q] / sum_q w_s(q - p) w_c(I[q] - I[p]) ) over the
taps q = p + (dx, dy) with dx^2 + dy^2 <= 16 (OpenCV's circular window for d = 9: 49 taps),
w_s = exp(-(dx^2 + dy^2) / (2 sigma_space^2)), w_c = exp(-(I[q] - I[p])^2 / (2 sigma_color^2)),
neighbours outside the frame reflected without repeating the edge (BORDER_REFLECT_101).
"""
import torch

RADIUS = 4
SIGMA_COLOR = 75.0
SIGMA_SPACE = 75.0

META = {
    "name": "bilateral_filter_gray",
    "level": 2,
    "category": "image",
    "dtypes": ["uint8"],
    # the output is rounded to uint8: a value within float error of .5 may round either way
    "tolerance": {"uint8": {"atol": 1.0, "rtol": 0.0}},
    "sizes": {
        "small": {"B": 2, "H": 20, "W": 40},
        "ragged": {"B": 2, "H": 29, "W": 71},
        "large": {"B": 8, "H": 1080, "W": 1920},
    },
    "baseline_notes": "One program per [16, 64] pixel tile of a frame, grid (cdiv(W, 64), cdiv(H, 16), B): a loop "
                      "over the 9 window rows, the 9 taps of a row unrolled (tl.static_range) and skipped outside the "
                      "circle (49 taps), each a reflected uint8 gather, an fp32 range weight "
                      "tl.exp(d * d * color_coeff) times the tap's scalar spatial weight, fp32 sums; rounded uint8 "
                      "store; 8 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """frames [B, H, W] uint8: smooth shading plus sensor noise and a few hard edges."""
    s = META["sizes"][size]
    B, H, W = s["B"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    coarse = torch.rand(B, 1, H // 8 + 2, W // 8 + 2, generator=g) * 255
    img = torch.nn.functional.interpolate(coarse, size=(H, W), mode="bilinear", align_corners=False)[:, 0]
    edges = (torch.rand(B, 1, 1, generator=g) * W).long()
    img = torch.where(torch.arange(W)[None, None, :] < edges, img * 0.4, img)
    img = img + torch.randn(B, H, W, generator=g) * 12
    return (img.clamp(0, 255).round().to(dt).to(device),)


def reflect101(i: torch.Tensor, n: int) -> torch.Tensor:
    i = i.abs()
    return torch.where(i > n - 1, 2 * (n - 1) - i, i)


def reference(frames: torch.Tensor) -> torch.Tensor:
    B, H, W = frames.shape
    f = frames.double()
    ys = torch.arange(H, device=frames.device)
    xs = torch.arange(W, device=frames.device)
    num = torch.zeros_like(f)
    den = torch.zeros_like(f)
    for dy in range(-RADIUS, RADIUS + 1):
        for dx in range(-RADIUS, RADIUS + 1):
            if dy * dy + dx * dx > RADIUS * RADIUS:
                continue
            q = f[:, reflect101(ys + dy, H)][:, :, reflect101(xs + dx, W)]
            w = torch.exp(torch.tensor(-(dx * dx + dy * dy) / (2 * SIGMA_SPACE ** 2), dtype=torch.float64)) \
                * torch.exp(-(q - f) ** 2 / (2 * SIGMA_COLOR ** 2))
            num += w * q
            den += w
    return torch.round(num / den).clamp(0, 255).to(frames.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    px = s["B"] * s["H"] * s["W"]
    return {"bytes": 2 * px, "flops": 49 * 10 * px}
