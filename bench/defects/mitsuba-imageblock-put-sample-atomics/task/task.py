"""Film accumulation of path-traced samples (Mitsuba 3 SamplingIntegrator.render: ImageBlock.put of every sample
with the box reconstruction filter into an RGBA hdrfilm, then ImageBlock develop).

The integrator traces one wavefront of H * W * spp camera rays; sample i belongs to pixel p = i // spp
(Mitsuba's sample_rays: idx //= spp, pos = (idx % W, idx // W), plus a jitter inside the pixel). With the
box filter (radius 0.5, the filter recommended for differentiable rendering) a sample's footprint is its own
pixel, so put() adds (R, G, B, alpha) and a weight of 1 into channels (R, G, B, A, W) of pixel p, and the
developed image is (R, G, B, A) / W. Inputs are the samples' (R, G, B, alpha) in wavefront order. Returns the
image [H, W, 4] fp32.
"""
import torch

META = {
    "name": "film_box_develop",
    "level": 1,
    "category": "rendering",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"H": 4, "W": 6, "spp": 8},
        "ragged": {"H": 5, "W": 7, "spp": 40},
        "large": {"H": 1080, "W": 1920, "spp": 16},
    },
    "baseline_notes": "1-D grid over blocks of 16 pixels; each program loops over its pixels' samples in chunks "
                      "of 32 ([16, 32, 4] tiles, contiguous because the samples of a pixel are adjacent in "
                      "wavefront order), sums them along the sample axis in registers together with the "
                      "sample count, and stores (R, G, B, A) / W once per pixel: no atomics, no accumulation "
                      "buffer. Default 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """samples [H * W * spp, 4] (R, G, B, alpha) in wavefront order, and the ints H, W, spp.

    Each pixel has a smooth base colour; the per-sample radiance is that colour times an exponential
    Monte Carlo factor, with ~0.1% fireflies 50x brighter, and alpha is 1 for rays that hit geometry
    (a centred object covering about two thirds of the frame, with a noisy silhouette) and 0 for escaped rays.
    """
    s = META["sizes"][size]
    h, w, spp = s["H"], s["W"], s["spp"]
    gen = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    ys = (torch.arange(h, dtype=torch.float32) + 0.5) / h
    xs = (torch.arange(w, dtype=torch.float32) + 0.5) / w
    py, px = torch.meshgrid(ys, xs, indexing="ij")
    base = torch.stack([0.6 + 0.4 * torch.sin(6.0 * px), 0.5 + 0.3 * torch.cos(5.0 * py), 0.4 + 0.2 * px * py], -1)
    cover = ((px - 0.5) / 0.48) ** 2 + ((py - 0.5) / 0.45) ** 2
    n = h * w * spp
    samples = torch.empty(n, 4)
    samples[:, :3] = base.reshape(-1, 1, 3).expand(h * w, spp, 3).reshape(n, 3)
    samples[:, :3] *= torch.empty(n, 1).exponential_(1.0, generator=gen)
    firefly = torch.rand(n, generator=gen) < 1e-3
    samples[firefly, :3] *= 50.0
    jitter = torch.rand(n, generator=gen) * 0.2 - 0.1
    samples[:, 3] = (cover.reshape(-1, 1).expand(h * w, spp).reshape(n) + jitter < 1.0).float()
    return samples.to(dt).to(device), h, w, spp


def reference(samples: torch.Tensor, height: int, width: int, spp: int) -> torch.Tensor:
    acc = torch.zeros(height * width, 4, dtype=torch.float64, device=samples.device)
    wsum = torch.zeros(height * width, dtype=torch.float64, device=samples.device)
    chunk = (1 << 22) // spp * spp
    for start in range(0, samples.shape[0], chunk):
        part = samples[start:start + chunk].double()
        pix = torch.arange(start, start + part.shape[0], device=samples.device) // spp
        acc.index_add_(0, pix, part)
        wsum.index_add_(0, pix, torch.ones_like(part[:, 0]))
    img = torch.where(wsum[:, None] > 0, acc / wsum.clamp(min=1.0)[:, None], torch.zeros_like(acc))
    return img.reshape(height, width, 4).to(samples.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    pix = s["H"] * s["W"]
    return {"bytes": 16 * pix * s["spp"] + 16 * pix, "flops": 5 * pix * s["spp"]}
