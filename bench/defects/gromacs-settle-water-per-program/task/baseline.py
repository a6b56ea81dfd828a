"""SETTLE for rigid water: analytical O-H / H-H constraints, positions [3W, 3] (O, H1, H2 per water)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _dot(ax, ay, az, bx, by, bz):
    return ax * bx + ay * by + az * bz


@triton.jit
def _unit(x, y, z):
    inv = 1.0 / tl.sqrt(x * x + y * y + z * z)
    return x * inv, y * inv, z * inv


@triton.jit
def _settle_water(old, new, out, water_model, n_waters, BLOCK: tl.constexpr):
    wat = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    live = wat < n_waters
    base = wat * 9
    mo = tl.load(water_model)
    mh = tl.load(water_model + 1)
    d_oh = tl.load(water_model + 2)
    d_hh = tl.load(water_model + 3)
    ox = tl.load(old + base, mask=live, other=0.0)
    oy = tl.load(old + base + 1, mask=live, other=0.0)
    oz = tl.load(old + base + 2, mask=live, other=0.0)
    xb0 = tl.load(old + base + 3, mask=live, other=1.0) - ox
    yb0 = tl.load(old + base + 4, mask=live, other=0.0) - oy
    zb0 = tl.load(old + base + 5, mask=live, other=0.0) - oz
    xc0 = tl.load(old + base + 6, mask=live, other=0.0) - ox
    yc0 = tl.load(old + base + 7, mask=live, other=1.0) - oy
    zc0 = tl.load(old + base + 8, mask=live, other=0.0) - oz
    xa = tl.load(new + base, mask=live, other=0.0) - ox
    ya = tl.load(new + base + 1, mask=live, other=0.0) - oy
    za = tl.load(new + base + 2, mask=live, other=0.0) - oz
    xb = tl.load(new + base + 3, mask=live, other=0.0) - ox
    yb = tl.load(new + base + 4, mask=live, other=0.0) - oy
    zb = tl.load(new + base + 5, mask=live, other=0.0) - oz
    xc = tl.load(new + base + 6, mask=live, other=0.0) - ox
    yc = tl.load(new + base + 7, mask=live, other=0.0) - oy
    zc = tl.load(new + base + 8, mask=live, other=0.0) - oz
    inv_m = 1.0 / (mo + 2.0 * mh)
    xcom = (mo * xa + mh * (xb + xc)) * inv_m
    ycom = (mo * ya + mh * (yb + yc)) * inv_m
    zcom = (mo * za + mh * (zb + zc)) * inv_m
    xa, ya, za = xa - xcom, ya - ycom, za - zcom
    xb, yb, zb = xb - xcom, yb - ycom, zb - zcom
    xc, yc, zc = xc - xcom, yc - ycom, zc - zcom
    zx, zy, zz = yb0 * zc0 - zb0 * yc0, zb0 * xc0 - xb0 * zc0, xb0 * yc0 - yb0 * xc0
    xx, xy, xz = ya * zz - za * zy, za * zx - xa * zz, xa * zy - ya * zx
    yx, yy, yz = zy * xz - zz * xy, zz * xx - zx * xz, zx * xy - zy * xx
    xx, xy, xz = _unit(xx, xy, xz)
    yx, yy, yz = _unit(yx, yy, yz)
    zx, zy, zz = _unit(zx, zy, zz)
    xb0d, yb0d = _dot(xx, xy, xz, xb0, yb0, zb0), _dot(yx, yy, yz, xb0, yb0, zb0)
    xc0d, yc0d = _dot(xx, xy, xz, xc0, yc0, zc0), _dot(yx, yy, yz, xc0, yc0, zc0)
    za1d = _dot(zx, zy, zz, xa, ya, za)
    xb1d, yb1d, zb1d = _dot(xx, xy, xz, xb, yb, zb), _dot(yx, yy, yz, xb, yb, zb), _dot(zx, zy, zz, xb, yb, zb)
    xc1d, yc1d, zc1d = _dot(xx, xy, xz, xc, yc, zc), _dot(yx, yy, yz, xc, yc, zc), _dot(zx, zy, zz, xc, yc, zc)
    rc = 0.5 * d_hh
    h = tl.sqrt(d_oh * d_oh - rc * rc)
    ra = h * 2.0 * mh * inv_m
    rb = h - ra
    sinphi = za1d / ra
    cosphi = tl.sqrt(1.0 - sinphi * sinphi)
    sinpsi = (zb1d - zc1d) / (2.0 * rc * cosphi)
    cospsi = tl.sqrt(1.0 - sinpsi * sinpsi)
    ya2d = ra * cosphi
    xb2d = -rc * cospsi
    yb2d = -rb * cosphi - rc * sinpsi * sinphi
    yc2d = -rb * cosphi + rc * sinpsi * sinphi
    hh2 = 4.0 * xb2d * xb2d + (yb2d - yc2d) * (yb2d - yc2d) + (zb1d - zc1d) * (zb1d - zc1d)
    xb2d = xb2d - 0.5 * (2.0 * xb2d + tl.sqrt(4.0 * xb2d * xb2d - hh2 + d_hh * d_hh))
    alpa = xb2d * (xb0d - xc0d) + yb0d * yb2d + yc0d * yc2d
    beta = xb2d * (yc0d - yb0d) + xb0d * yb2d + xc0d * yc2d
    gama = xb0d * yb1d - xb1d * yb0d + xc0d * yc1d - xc1d * yc0d
    al2be2 = alpa * alpa + beta * beta
    sinthe = (alpa * gama - beta * tl.sqrt(al2be2 - gama * gama)) / al2be2
    costhe = tl.sqrt(1.0 - sinthe * sinthe)
    xa3, ya3 = -ya2d * sinthe, ya2d * costhe
    xb3, yb3 = xb2d * costhe - yb2d * sinthe, xb2d * sinthe + yb2d * costhe
    xc3, yc3 = -xb2d * costhe - yc2d * sinthe, -xb2d * sinthe + yc2d * costhe
    cx, cy, cz = ox + xcom, oy + ycom, oz + zcom
    tl.store(out + base, cx + xx * xa3 + yx * ya3 + zx * za1d, mask=live)
    tl.store(out + base + 1, cy + xy * xa3 + yy * ya3 + zy * za1d, mask=live)
    tl.store(out + base + 2, cz + xz * xa3 + yz * ya3 + zz * za1d, mask=live)
    tl.store(out + base + 3, cx + xx * xb3 + yx * yb3 + zx * zb1d, mask=live)
    tl.store(out + base + 4, cy + xy * xb3 + yy * yb3 + zy * zb1d, mask=live)
    tl.store(out + base + 5, cz + xz * xb3 + yz * yb3 + zz * zb1d, mask=live)
    tl.store(out + base + 6, cx + xx * xc3 + yx * yc3 + zx * zc1d, mask=live)
    tl.store(out + base + 7, cy + xy * xc3 + yy * yc3 + zy * zc1d, mask=live)
    tl.store(out + base + 8, cz + xz * xc3 + yz * yc3 + zz * zc1d, mask=live)


def run(old: torch.Tensor, new: torch.Tensor, water_model: torch.Tensor) -> torch.Tensor:
    n_waters = old.shape[0] // 3
    out = torch.empty_like(new)
    BLOCK = 128
    grid = (triton.cdiv(n_waters, BLOCK),)
    _settle_water[grid](old, new, out, water_model, n_waters, BLOCK=BLOCK, num_warps=4)
    return out
