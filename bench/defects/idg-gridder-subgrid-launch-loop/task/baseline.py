"""IDG gridder: visibilities of each subgrid's time steps and channels summed onto its S x S pixels with phasors."""
import math

import torch
import triton
import triton.language as tl

BLOCK_T = 32


@triton.jit
def _grid_subgrids(uvw, wavenumbers, vis, spheroidal, metadata, subgrids,
                   n_chan, grid_size, image_size,
                   S: tl.constexpr, BLOCK_X: tl.constexpr, BLOCK_T: tl.constexpr):
    y = tl.program_id(0)
    s = tl.program_id(1)
    row0 = tl.load(metadata + s * 4)
    n_steps = tl.load(metadata + s * 4 + 1)
    x0 = tl.load(metadata + s * 4 + 2)
    y0 = tl.load(metadata + s * 4 + 3)
    subgrid = subgrids + s * (4 * S * S * 2)
    x = tl.arange(0, BLOCK_X)
    x_ok = x < S
    # direction cosines of this row of pixels
    l = (x.to(tl.float32) + 0.5 - S / 2) * image_size / S
    m = (y.to(tl.float32) + 0.5 - S / 2) * image_size / S
    r2 = l * l + m * m
    n = r2 / (1.0 + tl.sqrt(1.0 - r2))  # 1 - sqrt(1 - l^2 - m^2) without the cancellation
    u_off = (x0 + S // 2 - grid_size // 2) * (2.0 * 3.141592653589793 / image_size)
    v_off = (y0 + S // 2 - grid_size // 2) * (2.0 * 3.141592653589793 / image_size)
    phase_offset = u_off * l + v_off * m
    xx_re = tl.zeros([BLOCK_X, BLOCK_T], dtype=tl.float32)
    xx_im = tl.zeros([BLOCK_X, BLOCK_T], dtype=tl.float32)
    xy_re = tl.zeros([BLOCK_X, BLOCK_T], dtype=tl.float32)
    xy_im = tl.zeros([BLOCK_X, BLOCK_T], dtype=tl.float32)
    yx_re = tl.zeros([BLOCK_X, BLOCK_T], dtype=tl.float32)
    yx_im = tl.zeros([BLOCK_X, BLOCK_T], dtype=tl.float32)
    yy_re = tl.zeros([BLOCK_X, BLOCK_T], dtype=tl.float32)
    yy_im = tl.zeros([BLOCK_X, BLOCK_T], dtype=tl.float32)
    for t0 in range(0, n_steps, BLOCK_T):
        t = t0 + tl.arange(0, BLOCK_T)
        t_ok = t < n_steps
        row = row0 + t
        u = tl.load(uvw + row * 3, mask=t_ok, other=0.0)
        v = tl.load(uvw + row * 3 + 1, mask=t_ok, other=0.0)
        w = tl.load(uvw + row * 3 + 2, mask=t_ok, other=0.0)
        phase_index = u[None, :] * l[:, None] + v[None, :] * m + w[None, :] * n[:, None]
        for c in range(n_chan):
            wn = tl.load(wavenumbers + c)
            phase = phase_offset[:, None] - phase_index * wn
            cs = tl.cos(phase)
            sn = tl.sin(phase)
            base = vis + (row * n_chan + c) * 8
            vr = tl.load(base + 0, mask=t_ok, other=0.0)[None, :]
            vi = tl.load(base + 1, mask=t_ok, other=0.0)[None, :]
            xx_re += vr * cs - vi * sn
            xx_im += vr * sn + vi * cs
            vr = tl.load(base + 2, mask=t_ok, other=0.0)[None, :]
            vi = tl.load(base + 3, mask=t_ok, other=0.0)[None, :]
            xy_re += vr * cs - vi * sn
            xy_im += vr * sn + vi * cs
            vr = tl.load(base + 4, mask=t_ok, other=0.0)[None, :]
            vi = tl.load(base + 5, mask=t_ok, other=0.0)[None, :]
            yx_re += vr * cs - vi * sn
            yx_im += vr * sn + vi * cs
            vr = tl.load(base + 6, mask=t_ok, other=0.0)[None, :]
            vi = tl.load(base + 7, mask=t_ok, other=0.0)[None, :]
            yy_re += vr * cs - vi * sn
            yy_im += vr * sn + vi * cs
    # taper, then store fft-shifted by S/2 along both axes
    sph = tl.load(spheroidal + y * S + x, mask=x_ok, other=0.0)
    y_dst = tl.where(y < S // 2, y + S // 2, y - S // 2)
    x_dst = tl.where(x < S // 2, x + S // 2, x - S // 2)
    dst = subgrid + (y_dst * S + x_dst) * 2
    plane = S * S * 2
    tl.store(dst, tl.sum(xx_re, axis=1) * sph, mask=x_ok)
    tl.store(dst + 1, tl.sum(xx_im, axis=1) * sph, mask=x_ok)
    tl.store(dst + plane, tl.sum(xy_re, axis=1) * sph, mask=x_ok)
    tl.store(dst + plane + 1, tl.sum(xy_im, axis=1) * sph, mask=x_ok)
    tl.store(dst + 2 * plane, tl.sum(yx_re, axis=1) * sph, mask=x_ok)
    tl.store(dst + 2 * plane + 1, tl.sum(yx_im, axis=1) * sph, mask=x_ok)
    tl.store(dst + 3 * plane, tl.sum(yy_re, axis=1) * sph, mask=x_ok)
    tl.store(dst + 3 * plane + 1, tl.sum(yy_im, axis=1) * sph, mask=x_ok)


def run(uvw, wavenumbers, vis, spheroidal, metadata, grid_size: int, image_size: float) -> torch.Tensor:
    n_sub = metadata.shape[0]
    sub = spheroidal.shape[0]
    n_chan = wavenumbers.shape[0]
    subgrids = torch.empty(n_sub, 4, sub, sub, 2, device=vis.device, dtype=torch.float32)
    _grid_subgrids[(sub, n_sub)](uvw, wavenumbers, vis, spheroidal, metadata, subgrids,
                                 n_chan, grid_size, image_size,
                                 S=sub, BLOCK_X=triton.next_power_of_2(sub), BLOCK_T=BLOCK_T, num_warps=4)
    return subgrids
