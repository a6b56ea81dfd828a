"""RELION backproject2Dto3D: CTF-weighted particle FFTs spread trilinearly into the padded half-complex volume."""
import torch
import triton
import triton.language as tl

BLOCK = 256


@triton.jit
def _backproject_particle(fimg, ctf, rot, data, weight, particle, n_pix, W, CS, r_max2, pad, R, YS, XS,
                          BLOCK: tl.constexpr):
    k = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    row = k // W
    x = k - row * W
    y = tl.where(2 * row < CS, row, row - CS)
    ok = (k < n_pix) & (x * x + y * y < r_max2)

    # 3-D position of the pixel: pad * A^T (x, y, 0)
    m = rot + particle * 9
    a00 = tl.load(m + 0)
    a01 = tl.load(m + 1)
    a02 = tl.load(m + 2)
    a10 = tl.load(m + 3)
    a11 = tl.load(m + 4)
    a12 = tl.load(m + 5)
    xf = x.to(tl.float32)
    yf = y.to(tl.float32)
    xp = pad * (a00 * xf + a10 * yf)
    yp = pad * (a01 * xf + a11 * yf)
    zp = pad * (a02 * xf + a12 * yf)

    src = particle * n_pix + k
    c = tl.load(ctf + src, mask=ok, other=0.0)
    re = tl.load(fimg + 2 * src, mask=ok, other=0.0) * c
    im = tl.load(fimg + 2 * src + 1, mask=ok, other=0.0) * c
    wt = c * c

    # only the x >= 0 half is stored: mirror the point and conjugate the value
    neg = xp < 0.0
    xp = tl.where(neg, -xp, xp)
    yp = tl.where(neg, -yp, yp)
    zp = tl.where(neg, -zp, zp)
    im = tl.where(neg, -im, im)

    x0f = tl.floor(xp)
    y0f = tl.floor(yp)
    z0f = tl.floor(zp)
    fx = xp - x0f
    fy = yp - y0f
    fz = zp - z0f
    x0 = x0f.to(tl.int32)
    y0 = y0f.to(tl.int32) + R
    z0 = z0f.to(tl.int32) + R
    for dz in tl.static_range(2):
        wz = fz if dz == 1 else 1.0 - fz
        for dy in tl.static_range(2):
            wy = fy if dy == 1 else 1.0 - fy
            for dx in tl.static_range(2):
                wx = fx if dx == 1 else 1.0 - fx
                f = wz * wy * wx
                idx = ((z0 + dz) * YS + (y0 + dy)) * XS + (x0 + dx)
                tl.atomic_add(data + 2 * idx, f * re, mask=ok, sem="relaxed")
                tl.atomic_add(data + 2 * idx + 1, f * im, mask=ok, sem="relaxed")
                tl.atomic_add(weight + idx, f * wt, mask=ok, sem="relaxed")


def run(fimg: torch.Tensor, ctf: torch.Tensor, rot: torch.Tensor, ori_size: int, pad: int) -> tuple:
    n, cs, w, _ = fimg.shape
    r = pad * (ori_size // 2)
    ys, xs = 2 * r + 1, r + 1
    data = torch.zeros((ys, ys, xs, 2), device=fimg.device, dtype=torch.float32)
    weight = torch.zeros((ys, ys, xs), device=fimg.device, dtype=torch.float32)
    n_pix = cs * w
    grid = (triton.cdiv(n_pix, BLOCK),)
    # one particle at a time, as RELION's backprojector is called per image
    for p in range(n):
        _backproject_particle[grid](fimg, ctf, rot, data, weight, p, n_pix, w, cs, (cs // 2) ** 2, float(pad),
                                    r, ys, xs, BLOCK=BLOCK, num_warps=4)
    return data, weight
