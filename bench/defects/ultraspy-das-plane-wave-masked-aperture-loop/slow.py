"""Plane-wave RF delay-and-sum with coherent compounding: one program per 128 depths of one image line."""
import torch
import triton
import triton.language as tl

BLOCK_Z = 128


@triton.jit
def _das_rf(rf, angles, elem_x, pix_x, pix_z, out, n_tx, n_el, n_samp, nz,
            fs, inv_c, f_number, BLOCK_Z: tl.constexpr):
    iz = tl.program_id(0) * BLOCK_Z + tl.arange(0, BLOCK_Z)
    ix = tl.program_id(1)
    in_img = iz < nz
    z = tl.load(pix_z + iz, mask=in_img, other=1.0)
    x = tl.load(pix_x + ix)
    x_first = tl.load(elem_x)
    half_aperture = 0.5 * (tl.load(elem_x + n_el - 1) - x_first)
    acc = tl.zeros([BLOCK_Z], dtype=tl.float32)
    for t in range(n_tx):
        theta = tl.load(angles + t)
        sin_t = tl.sin(theta)
        d_tx = x * sin_t + z * tl.cos(theta) + half_aperture * tl.abs(sin_t)
        chan = rf + t * n_el * n_samp
        for e in range(n_el):
            dx = x - tl.load(elem_x + e)
            tau = (d_tx + tl.sqrt(dx * dx + z * z)) * inv_c
            smp = tau * fs
            s0 = tl.floor(smp)
            frac = smp - s0
            i0 = s0.to(tl.int32)
            w = tl.maximum(1.0 - 2.0 * tl.abs(dx * f_number / z), 0.0)
            use = in_img & (i0 >= 0) & (i0 < n_samp - 1) & (w > 0.0)
            p = chan + e * n_samp + i0
            a0 = tl.load(p, mask=use, other=0.0)
            a1 = tl.load(p + 1, mask=use, other=0.0)
            acc += w * (a0 + frac * (a1 - a0))
    tl.store(out + ix * nz + iz, acc, mask=in_img)


def run(rf, angles, elem_x, pix_x, pix_z, fs, c, f_number) -> torch.Tensor:
    n_tx, n_el, n_samp = rf.shape
    nx, nz = pix_x.shape[0], pix_z.shape[0]
    out = torch.empty(nx, nz, device=rf.device, dtype=torch.float32)
    grid = (triton.cdiv(nz, BLOCK_Z), nx)
    _das_rf[grid](rf, angles, elem_x, pix_x, pix_z, out, n_tx, n_el, n_samp, nz,
                  fs, 1.0 / c, f_number, BLOCK_Z=BLOCK_Z, num_warps=4)
    return out
