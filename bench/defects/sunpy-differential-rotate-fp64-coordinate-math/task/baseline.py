"""Differential rotation of a full-disk map: inverse-map every output pixel through the solar frames and
sample the earlier image bilinearly (sunpy differential_rotate, HGS frame, Howard rotation rate)."""
import math

import torch
import triton
import triton.language as tl

BLOCK_H = 8
BLOCK_W = 128


@triton.jit
def _diffrot_warp(img, out, H, W, cx, cy, cdelt, dist, sin_b0, cos_b0, dt_days,
                  BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    pid = tl.program_id(0)
    n_w = tl.cdiv(W, BLOCK_W)
    rows = (pid // n_w) * BLOCK_H + tl.arange(0, BLOCK_H)
    cols = (pid % n_w) * BLOCK_W + tl.arange(0, BLOCK_W)
    inside = (rows[:, None] < H) & (cols[None, :] < W)
    xi = ((cols.to(tl.float32) - cx) * cdelt)[None, :]
    eta = ((rows.to(tl.float32) - cy) * cdelt)[:, None]

    # helioprojective (TAN) -> heliocentric: where the ray from the observer meets the photosphere
    rho2 = xi * xi + eta * eta
    n2 = 1.0 + rho2
    inv_n = 1.0 / tl.sqrt(n2)
    disc = 1.0 - dist * dist * rho2 / n2
    on_disk = disc >= 0.0
    root = tl.sqrt(tl.maximum(disc, 0.0))
    d = dist * inv_n - root
    px = d * xi * inv_n
    py = d * eta * inv_n
    pz = dist * rho2 / n2 + root * inv_n  # = dist - d / n without the cancellation

    # heliocentric -> Stonyhurst (observer at latitude B0): sin(lat) and cos(lat) * (sin lon, cos lon)
    sin_lat = py * cos_b0 + pz * sin_b0
    xe = px
    ze = pz * cos_b0 - py * sin_b0

    # Howard et al. (1990) rate in urad/s -> rad/day, minus Earth's orbital motion (synodic)
    s2 = sin_lat * sin_lat
    omega = (2.894 - 0.428 * s2 - 0.370 * s2 * s2) * 0.0864 - 0.0172019651  # 0.9856 deg/day
    shift = omega * dt_days
    c = tl.cos(shift)
    s = tl.sin(shift)
    xe0 = xe * c - ze * s
    ze0 = ze * c + xe * s

    # back to heliocentric at t0, occultation test, gnomonic re-projection to t0 pixels
    qx = xe0
    qy = sin_lat * cos_b0 - ze0 * sin_b0
    qz = sin_lat * sin_b0 + ze0 * cos_b0
    visible = on_disk & (qz * dist > 1.0) & inside
    dz = dist - qz
    src_j = tl.where(visible, qx / dz / cdelt + cx, -2.0)
    src_i = tl.where(visible, qy / dz / cdelt + cy, -2.0)

    # bilinear sample of the t0 image, zero outside the array
    j0f = tl.floor(src_j)
    i0f = tl.floor(src_i)
    fj = src_j - j0f
    fi = src_i - i0f
    j0 = j0f.to(tl.int32)
    i0 = i0f.to(tl.int32)
    ok_j0 = (j0 >= 0) & (j0 < W)
    ok_j1 = (j0 + 1 >= 0) & (j0 + 1 < W)
    ok_i0 = visible & (i0 >= 0) & (i0 < H)
    ok_i1 = visible & (i0 + 1 >= 0) & (i0 + 1 < H)
    at = img + i0 * W + j0
    v00 = tl.load(at, mask=ok_i0 & ok_j0, other=0.0)
    v01 = tl.load(at + 1, mask=ok_i0 & ok_j1, other=0.0)
    v10 = tl.load(at + W, mask=ok_i1 & ok_j0, other=0.0)
    v11 = tl.load(at + W + 1, mask=ok_i1 & ok_j1, other=0.0)
    val = (1.0 - fi) * ((1.0 - fj) * v00 + fj * v01) + fi * ((1.0 - fj) * v10 + fj * v11)
    tl.store(out + rows[:, None] * W + cols[None, :], val, mask=inside)


def run(image: torch.Tensor, cx: float, cy: float, cdelt: float, dist: float, b0: float,
        dt_days: float) -> torch.Tensor:
    H, W = image.shape
    image = image.contiguous()
    out = torch.empty_like(image)
    grid = (triton.cdiv(H, BLOCK_H) * triton.cdiv(W, BLOCK_W),)
    _diffrot_warp[grid](image, out, H, W, cx, cy, cdelt, dist, math.sin(b0), math.cos(b0), dt_days,
                        BLOCK_H=BLOCK_H, BLOCK_W=BLOCK_W, num_warps=8)
    return out
