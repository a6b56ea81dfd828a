"""pbrt-v4 RGBFilm: add every pass's samples to the pixels (clamped, weighted, double sums), then resolve."""
import torch
import triton
import triton.language as tl

BLOCK = 512


@triton.jit
def _add_samples(radiance, weight, sums, n_pix, max_comp, BLOCK: tl.constexpr):
    # RGBFilm::AddSample for one pass: one sample per pixel into the pixel's double sums.
    p = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    live = p < n_pix
    r = tl.load(radiance + 3 * p, mask=live, other=0.0)
    g = tl.load(radiance + 3 * p + 1, mask=live, other=0.0)
    b = tl.load(radiance + 3 * p + 2, mask=live, other=0.0)
    wt = tl.load(weight + p, mask=live, other=0.0)
    m = tl.maximum(tl.maximum(r, g), b)
    scale = tl.where(m > max_comp, max_comp / m, 1.0)
    px = sums + 4 * p
    tl.store(px + 0, tl.load(px + 0, mask=live, other=0.0) + (wt * (r * scale)).to(tl.float64), mask=live)
    tl.store(px + 1, tl.load(px + 1, mask=live, other=0.0) + (wt * (g * scale)).to(tl.float64), mask=live)
    tl.store(px + 2, tl.load(px + 2, mask=live, other=0.0) + (wt * (b * scale)).to(tl.float64), mask=live)
    tl.store(px + 3, tl.load(px + 3, mask=live, other=0.0) + wt.to(tl.float64), mask=live)


@triton.jit
def _resolve(sums, mat, out, n_pix, BLOCK: tl.constexpr):
    # RGBFilm::GetPixelRGB: rgbSum / weightSum, then outputRGBFromSensorRGB.
    p = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    live = p < n_pix
    px = sums + 4 * p
    sr = tl.load(px + 0, mask=live, other=0.0)
    sg = tl.load(px + 1, mask=live, other=0.0)
    sb = tl.load(px + 2, mask=live, other=0.0)
    sw = tl.load(px + 3, mask=live, other=0.0)
    nz = sw != 0
    div = tl.where(nz, sw, 1.0)
    r = (sr / div).to(tl.float32)
    g = (sg / div).to(tl.float32)
    b = (sb / div).to(tl.float32)
    tl.store(out + 3 * p, tl.load(mat + 0) * r + tl.load(mat + 1) * g + tl.load(mat + 2) * b, mask=live)
    tl.store(out + 3 * p + 1, tl.load(mat + 3) * r + tl.load(mat + 4) * g + tl.load(mat + 5) * b, mask=live)
    tl.store(out + 3 * p + 2, tl.load(mat + 6) * r + tl.load(mat + 7) * g + tl.load(mat + 8) * b, mask=live)


def run(radiance, weight, max_comp, out_from_sensor):
    n_spp, h, w, _ = radiance.shape
    n_pix = h * w
    sums = torch.zeros(n_pix, 4, device=radiance.device, dtype=torch.float64)
    out = torch.empty(h, w, 3, device=radiance.device, dtype=radiance.dtype)
    grid = (triton.cdiv(n_pix, BLOCK),)
    # one film update per sample pass, as the wavefront integrator issues them
    for s in range(n_spp):
        _add_samples[grid](radiance[s], weight[s], sums, n_pix, max_comp, BLOCK=BLOCK, num_warps=4)
    _resolve[grid](sums, out_from_sensor, out, n_pix, BLOCK=BLOCK, num_warps=4)
    return out
