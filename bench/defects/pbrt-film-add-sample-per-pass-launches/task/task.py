"""Film resolve of per-pass radiance samples (pbrt-v4 RGBFilm::AddSample + RGBFilm::GetPixelRGB).

A wavefront path tracer renders one sample per pixel per pass and leaves, for pass s, the sensor-RGB
radiance L[s, y, x] and the filter weight w[s, y, x] (filter importance sampling). pbrt's film adds each
sample to the pixel: the sample's largest component is clamped to maxComponentValue (rgb *= max_comp / m
when m > max_comp), then rgbSum += weight * rgb and weightSum += weight, both sums in double. The
resolve divides by weightSum (when non-zero) and applies the 3x3 outputRGBFromSensorRGB matrix.
Returns the output-RGB image [H, W, 3] fp32.
"""
import torch

META = {
    "name": "film_add_samples_resolve",
    "level": 1,
    "category": "image",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"S": 4, "H": 5, "W": 7},
        "ragged": {"S": 3, "H": 9, "W": 13},
        "large": {"S": 16, "H": 2160, "W": 3840},
    },
    "baseline_notes": "One launch; each program owns 512 pixels, loops over the S sample passes with the "
                      "four double sums (rgb and weight) in registers (clamp and weight * rgb in fp32 as "
                      "pbrt does), then divides, applies the 3x3 matrix and stores RGB. 4 warps, no autotune.",
    "deterministic": True,
}
MAX_COMPONENT = 10.0   # the scene's "maxcomponentvalue" (pbrt's default is +inf)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """L [S, H, W, 3] fp32 sensor RGB per pass, w [S, H, W] fp32 filter weights, max_comp (float),
    out_from_sensor [3, 3] fp32."""
    s = META["sizes"][size]
    n_s, h, w = s["S"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    y = torch.linspace(0.0, 1.0, h)[:, None]
    x = torch.linspace(0.0, 1.0, w)[None, :]
    base = torch.stack([0.6 + 0.5 * x * y, 0.5 + 0.4 * torch.sin(6.0 * x + 3.0 * y) ** 2,
                        0.3 + 0.7 * y.expand(h, w)], dim=-1)
    radiance = torch.rand(n_s, h, w, 3, generator=g)
    radiance.clamp_(min=1e-7).log_().neg_()                         # exponential path-tracing noise
    radiance.mul_(base)
    fireflies = torch.rand(n_s, h, w, 1, generator=g) < 0.01
    radiance.add_(fireflies * 250.0)                                 # rare caustic paths, clamped by the film
    weight = 0.85 + 0.3 * torch.rand(n_s, h, w, generator=g)
    m = torch.tensor([[1.05, -0.04, -0.01], [-0.02, 0.98, 0.04], [0.01, -0.06, 1.05]])
    return radiance.to(dt).to(device), weight.to(dt).to(device), MAX_COMPONENT, m.to(dt).to(device)


def reference(radiance, weight, max_comp, out_from_sensor):
    rgb_sum = torch.zeros(radiance.shape[1:], dtype=torch.float64, device=radiance.device)
    w_sum = torch.zeros(weight.shape[1:], dtype=torch.float64, device=radiance.device)
    for s in range(radiance.shape[0]):
        rgb = radiance[s].double()
        m = rgb.amax(-1, keepdim=True)
        rgb = torch.where(m > max_comp, rgb * (max_comp / m), rgb)
        rgb_sum += weight[s].double()[..., None] * rgb
        w_sum += weight[s].double()
    rgb = torch.where(w_sum[..., None] != 0, rgb_sum / w_sum[..., None], rgb_sum)
    return (rgb @ out_from_sensor.double().T).to(radiance.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["H"] * s["W"]
    return {"bytes": 16 * s["S"] * n + 12 * n, "flops": 12 * s["S"] * n + 20 * n}
