"""Cycles film convert of the combined pass to the half-float RGBA display buffer.

Cycles keeps its render buffer as [height, width, pass_stride] floats: every pixel holds all of
its passes back to back (here pass_stride = 16: combined RGBA 0..3, denoising normal 4..6,
denoising albedo 7..9, denoising depth 10, sample count 11, adaptive-sampling aux 12..15). The
sample-count pass stores the pixel's number of accumulated samples as the bits of a uint.

For the display, PassAccessorGPU runs film_convert_combined_half_rgba over the window
(film_get_scale_and_scale_exposure + film_get_pass_pixel_combined, with pass_use_filter and
pass_use_exposure on):
    n = sample_count(pixel);  n == 0 -> (0, 0, 0, 0)
    scale = 1 / n;  scale_exposure = scale * exposure
    rgb   = combined.rgb * scale_exposure
    alpha = saturate(1 - combined.a * scale)      (combined.a accumulates transparency)
and float4_store_half stores it as half RGBA with the display conversion: NaN -> 0, clamp to
[0, 65504]. Returns rgba fp16 [height, width, 4].
"""
import torch

META = {
    "name": "cycles_film_convert_half_rgba",
    "level": 1,
    "category": "image",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 2e-3}},
    "sizes": {
        "small": {"H": 8, "W": 64, "pass_stride": 16},
        "ragged": {"H": 7, "W": 45, "pass_stride": 16},
        "large": {"H": 2160, "W": 3840, "pass_stride": 16},
    },
    "baseline_notes": "One launch over a (cdiv(W, 512), H) grid; each program converts 512 pixels of one "
                      "scanline: the sample count and the combined RGBA as a [512, 4] tile, scale and "
                      "exposure, display clamp, one [512, 4] half store. 4 warps, no autotune.",
    "deterministic": True,
}
PASS_COMBINED = 0
PASS_SAMPLE_COUNT = 11


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """render_buffer [H, W, pass_stride] fp32, exposure (float), pass_combined (int), pass_sample_count (int)."""
    s = META["sizes"][size]
    h, w, ps = s["H"], s["W"], s["pass_stride"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    buf = torch.rand(h, w, ps, generator=g)
    # adaptive sampling: 16..1024 samples per pixel, and a few pixels not rendered yet
    count = torch.randint(16, 1025, (h, w), generator=g, dtype=torch.int32)
    count[torch.rand(h, w, generator=g) < 0.01] = 0
    radiance = torch.rand(h, w, 3, generator=g) ** 2 * 6.0
    radiance[torch.rand(h, w, generator=g) < 0.002] *= 2.0e4          # fireflies past the half range
    transparency = (torch.rand(h, w, generator=g) - 0.7).clamp(min=0.0) / 0.3
    buf[..., PASS_COMBINED:PASS_COMBINED + 3] = radiance * count[..., None]
    buf[..., PASS_COMBINED + 3] = transparency * count
    buf = buf.to(dt)
    buf.view(torch.int32)[..., PASS_SAMPLE_COUNT] = count
    exposure = 1.35
    return buf.to(device), exposure, PASS_COMBINED, PASS_SAMPLE_COUNT


def reference(render_buffer: torch.Tensor, exposure: float, pass_combined: int, pass_sample_count: int) -> torch.Tensor:
    buf = render_buffer.float()
    count = render_buffer.view(torch.int32)[..., pass_sample_count]
    scale = 1.0 / count.clamp(min=1).float()
    scale_exposure = scale * torch.tensor(exposure, dtype=torch.float32)
    combined = buf[..., pass_combined:pass_combined + 4]
    rgb = combined[..., :3] * scale_exposure[..., None]
    alpha = (1.0 - combined[..., 3] * scale).clamp(0.0, 1.0)
    pixel = torch.cat([rgb, alpha[..., None]], dim=-1)
    pixel = torch.where(count[..., None] > 0, pixel, torch.zeros_like(pixel))
    pixel = torch.nan_to_num(pixel, nan=0.0).clamp(0.0, 65504.0)
    return pixel.to(torch.float16)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["H"] * s["W"]
    return {"bytes": n * (20 + 8), "flops": 8 * n}
