"""Per-channel 256-bin intensity histograms of a batch of uint8 images (the first step of
torchvision.transforms.v2.functional.equalize / OpenCV calcHist per plane): x [N, C, H, W] uint8 ->
hist [N * C, 256] int32, hist[p, v] = number of pixels of plane p with value v."""
import torch

META = {
    "name": "equalize_plane_histogram",
    "level": 2,
    "category": "reduction",
    "dtypes": ["uint8"],
    "tolerance": {"uint8": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 2, "C": 3, "H": 40, "W": 56},
        "ragged": {"N": 3, "C": 3, "H": 37, "W": 53},
        "large": {"N": 16, "C": 3, "H": 1080, "W": 1920},
    },
    "baseline_notes": "2-D grid (plane, chunk of 16,384 pixels): each program histograms its chunk with "
                      "tl.histogram and adds the 256 counts into the plane's row with int32 atomics; 8 warps.",
    "deterministic": True,
}

BINS = 256


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N, C, H, W] uint8: smooth gradients plus noise, with a dark and a saturated region (skewed
    histograms, as in frames that need equalizing)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    n, c, h, w = s["N"], s["C"], s["H"], s["W"]
    yy = torch.linspace(0.0, 1.0, h)[:, None]
    xx = torch.linspace(0.0, 1.0, w)[None, :]
    gain = torch.rand(n, c, 1, 1, generator=g) * 0.6 + 0.2
    base = (0.6 * yy + 0.4 * xx)[None, None] * gain * 255.0
    img = base + torch.randn(n, c, h, w, generator=g) * 12.0
    img[..., : h // 5, : w // 4] = 3.0
    img[..., -(h // 6):, -(w // 5):] = 255.0
    return (img.round().clamp(0, 255).to(torch.uint8).to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    planes = x.shape[0] * x.shape[1]
    v = x.reshape(planes, -1).long()
    idx = v + BINS * torch.arange(planes, device=x.device)[:, None]
    return torch.bincount(idx.reshape(-1), minlength=planes * BINS).reshape(planes, BINS).to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    pixels = s["N"] * s["C"] * s["H"] * s["W"]
    return {"bytes": pixels + 4 * BINS * s["N"] * s["C"], "flops": pixels}
