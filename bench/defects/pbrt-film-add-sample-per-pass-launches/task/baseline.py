"""pbrt-v4 RGBFilm: add every pass's samples to the pixels (clamped, weighted, double sums), then resolve."""
import torch
import triton
import triton.language as tl

BLOCK = 512


@triton.jit
def _film(radiance, weight, mat, out, n_pix, n_spp, max_comp, BLOCK: tl.constexpr):
    # RGBFilm::AddSample for every pass, the pixel's double sums held in registers,
    # then RGBFilm::GetPixelRGB: rgbSum / weightSum and outputRGBFromSensorRGB.
    p = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    live = p < n_pix
    sr = tl.zeros([BLOCK], dtype=tl.float64)
    sg = tl.zeros([BLOCK], dtype=tl.float64)
    sb = tl.zeros([BLOCK], dtype=tl.float64)
    sw = tl.zeros([BLOCK], dtype=tl.float64)
    for s in range(n_spp):
        q = s * n_pix + p
        r = tl.load(radiance + 3 * q, mask=live, other=0.0)
        g = tl.load(radiance + 3 * q + 1, mask=live, other=0.0)
        b = tl.load(radiance + 3 * q + 2, mask=live, other=0.0)
        wt = tl.load(weight + q, mask=live, other=0.0)
        m = tl.maximum(tl.maximum(r, g), b)
        scale = tl.where(m > max_comp, max_comp / m, 1.0)
        sr += (wt * (r * scale)).to(tl.float64)
        sg += (wt * (g * scale)).to(tl.float64)
        sb += (wt * (b * scale)).to(tl.float64)
        sw += wt.to(tl.float64)
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
    out = torch.empty(h, w, 3, device=radiance.device, dtype=radiance.dtype)
    grid = (triton.cdiv(n_pix, BLOCK),)
    _film[grid](radiance, weight, out_from_sensor, out, n_pix, n_spp, max_comp, BLOCK=BLOCK, num_warps=4)
    return out
