"""gdaldem hillshade (Horn gradient, algebraic shade): column strips x row bands, each swept with a rolling 3-row window."""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def _horn_row_terms(dem, r, H, W, stride, cols):
    """For DEM row r: left-minus-right difference and the 1-2-1 smoothed sum at each column (0 off the raster)."""
    row_ok = (r >= 0) & (r < H)
    row = dem + r * stride
    zl = tl.load(row + cols - 1, mask=row_ok & (cols >= 1) & (cols <= W), other=0.0)
    zc = tl.load(row + cols, mask=row_ok & (cols < W), other=0.0)
    zr = tl.load(row + cols + 1, mask=row_ok & (cols + 1 < W), other=0.0)
    return zl - zr, zl + 2.0 * zc + zr


@triton.jit
def _hillshade_sweep(dem, out, H, W, stride_d, stride_o, inv_8ew, inv_8ns, sin_alt, cos_az_k, sin_az_k, z2,
                     BLOCK_W: tl.constexpr, BAND_ROWS: tl.constexpr):
    strip = tl.program_id(0)
    r0 = tl.program_id(1) * BAND_ROWS
    cols = strip * BLOCK_W + tl.arange(0, BLOCK_W)
    col_inside = (cols >= 1) & (cols < W - 1)
    d_prev, s_prev = _horn_row_terms(dem, r0 - 1, H, W, stride_d, cols)
    d_cur, s_cur = _horn_row_terms(dem, r0, H, W, stride_d, cols)
    for r in range(r0, tl.minimum(r0 + BAND_ROWS, H)):
        d_next, s_next = _horn_row_terms(dem, r + 1, H, W, stride_d, cols)
        x = (d_prev + 2.0 * d_cur + d_next) * inv_8ew
        y = (s_next - s_prev) * inv_8ns
        cang = (sin_alt - (y * cos_az_k - x * sin_az_k)) / tl.sqrt(1.0 + z2 * (x * x + y * y))
        inside = col_inside & (r >= 1) & (r < H - 1)
        tl.store(out + r * stride_o + cols, tl.where(inside, tl.maximum(cang, 0.0), 0.0), mask=cols < W)
        d_prev, s_prev = d_cur, s_cur
        d_cur, s_cur = d_next, s_next


def run(dem: torch.Tensor, ewres: float, nsres: float, z_factor: float, azimuth: float, altitude: float):
    H, W = dem.shape
    out = torch.empty(H, W, device=dem.device, dtype=torch.float32)
    alt, az = math.radians(altitude), math.radians(azimuth)
    BLOCK_W, BAND_ROWS = 256, 64
    grid = (triton.cdiv(W, BLOCK_W), triton.cdiv(H, BAND_ROWS))
    _hillshade_sweep[grid](dem, out, H, W, dem.stride(0), out.stride(0),
                           1.0 / (8.0 * ewres), 1.0 / (8.0 * nsres), math.sin(alt),
                           z_factor * math.cos(alt) * math.cos(az), z_factor * math.cos(alt) * math.sin(az),
                           z_factor * z_factor, BLOCK_W=BLOCK_W, BAND_ROWS=BAND_ROWS, num_warps=4)
    return out
