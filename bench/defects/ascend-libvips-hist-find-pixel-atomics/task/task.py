"""Histogram of an 8-bit one-band image: libvips vips_hist_find, the first stage of vips_hist_equal.

vips_hist_equal(in) = vips_hist_find -> vips_hist_cum -> vips_hist_norm -> vips_maplut. For a uchar image
vips_hist_find counts every pixel value into 256 bins (a 256 x 1 uint histogram image):
    hist[v] = #{ p : img[p] == v },  v = 0 .. 255
The task is that count over a greyscale frame (uint8 [H, W]); the result is int32 [256].
"""
import torch

META = {
    "name": "libvips_hist_find_uchar",
    "level": 2,
    "category": "histogram",
    "dtypes": ["uint8"],
    "tolerance": {"uint8": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"H": 48, "W": 64},
        "ragged": {"H": 37, "W": 53},
        "large": {"H": 2160, "W": 3840},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over 4096-pixel blocks of the flattened "
                      "image; each block is counted with tl.histogram into a 256-bin int32 register "
                      "histogram kept across the program's blocks (the zero-filled tail is taken back out of "
                      "bin 0), and each program adds its histogram into the output with one 256-lane "
                      "atomic add; no autotune.",
    "deterministic": True,
}
NBINS = 256


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A dim, low-contrast greyscale frame (the kind hist_equal is run on): uint8 [H, W]."""
    s = META["sizes"][size]
    h, w = s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    yy = torch.linspace(0, 1, h)[:, None]
    xx = torch.linspace(0, 1, w)[None, :]
    base = 40.0 + 25.0 * torch.sin(4.0 * xx + 3.0 * yy) + 20.0 * yy
    img = base + 12.0 * torch.randn(h, w, generator=g)
    img = img.round().clamp(0, 255).to(torch.uint8)
    return (img.to(device),)


def reference(img: torch.Tensor) -> torch.Tensor:
    return torch.bincount(img.reshape(-1).long(), minlength=NBINS).to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["H"] * s["W"]
    return {"bytes": n + 4 * NBINS, "flops": n}
