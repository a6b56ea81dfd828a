"""Powder XRD intensities per reflection: form factors, Debye-Waller, structure factor, Lorentz-polarization."""
import math

import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _xrd_intensity(hkl_ptr, recip_ptr, frac_ptr, coeff_ptr, z_ptr, occu_ptr, dw_ptr, out_ptr,
                   R, N, wavelength, BR: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    r00 = tl.load(recip_ptr + 0)
    r01 = tl.load(recip_ptr + 1)
    r02 = tl.load(recip_ptr + 2)
    r10 = tl.load(recip_ptr + 3)
    r11 = tl.load(recip_ptr + 4)
    r12 = tl.load(recip_ptr + 5)
    r20 = tl.load(recip_ptr + 6)
    r21 = tl.load(recip_ptr + 7)
    r22 = tl.load(recip_ptr + 8)
    two_pi = 2.0 * math.pi
    for blk in range(pid, tl.cdiv(R, BR), nprog):
        rows = blk * BR + tl.arange(0, BR)
        rmask = rows < R
        h = tl.load(hkl_ptr + rows, mask=rmask, other=1.0)
        k = tl.load(hkl_ptr + R + rows, mask=rmask, other=0.0)
        l = tl.load(hkl_ptr + 2 * R + rows, mask=rmask, other=0.0)
        gx = h * r00 + k * r10 + l * r20
        gy = h * r01 + k * r11 + l * r21
        gz = h * r02 + k * r12 + l * r22
        s2 = 0.25 * (gx * gx + gy * gy + gz * gz)
        re = tl.zeros([BR], dtype=tl.float32)
        im = tl.zeros([BR], dtype=tl.float32)
        for j0 in range(0, N, BN):
            cols = j0 + tl.arange(0, BN)
            cmask = cols < N
            x = tl.load(frac_ptr + cols, mask=cmask, other=0.0)
            y = tl.load(frac_ptr + N + cols, mask=cmask, other=0.0)
            z = tl.load(frac_ptr + 2 * N + cols, mask=cmask, other=0.0)
            a1 = tl.load(coeff_ptr + cols, mask=cmask, other=0.0)
            a2 = tl.load(coeff_ptr + N + cols, mask=cmask, other=0.0)
            a3 = tl.load(coeff_ptr + 2 * N + cols, mask=cmask, other=0.0)
            a4 = tl.load(coeff_ptr + 3 * N + cols, mask=cmask, other=0.0)
            b1 = tl.load(coeff_ptr + 4 * N + cols, mask=cmask, other=0.0)
            b2 = tl.load(coeff_ptr + 5 * N + cols, mask=cmask, other=0.0)
            b3 = tl.load(coeff_ptr + 6 * N + cols, mask=cmask, other=0.0)
            b4 = tl.load(coeff_ptr + 7 * N + cols, mask=cmask, other=0.0)
            zs = tl.load(z_ptr + cols, mask=cmask, other=0.0)
            occ = tl.load(occu_ptr + cols, mask=cmask, other=0.0)
            bw = tl.load(dw_ptr + cols, mask=cmask, other=0.0)

            q = s2[:, None]
            gauss = a1[None, :] * tl.exp(-b1[None, :] * q) + a2[None, :] * tl.exp(-b2[None, :] * q) \
                + a3[None, :] * tl.exp(-b3[None, :] * q) + a4[None, :] * tl.exp(-b4[None, :] * q)
            fs = zs[None, :] - 41.78214 * q * gauss
            amp = fs * occ[None, :] * tl.exp(-bw[None, :] * q)
            t = h[:, None] * x[None, :] + k[:, None] * y[None, :] + l[:, None] * z[None, :]
            ph = two_pi * (t - tl.floor(t))
            re += tl.sum(amp * tl.cos(ph), axis=1)
            im += tl.sum(amp * tl.sin(ph), axis=1)

        sin2 = wavelength * wavelength * s2
        cos_t = tl.sqrt(1.0 - sin2)
        cos_2t = 1.0 - 2.0 * sin2
        lorentz = (1.0 + cos_2t * cos_2t) / (sin2 * cos_t)
        tl.store(out_ptr + rows, (re * re + im * im) * lorentz, mask=rmask)


def run(hkl: torch.Tensor, recip: torch.Tensor, frac: torch.Tensor, coeff: torch.Tensor, z: torch.Tensor,
        occu: torch.Tensor, dw: torch.Tensor, wavelength: float) -> torch.Tensor:
    R = hkl.shape[1]
    N = frac.shape[1]
    out = torch.empty((R,), device=hkl.device, dtype=hkl.dtype)
    BR, BN = 32, 64
    grid = (min(_VECTOR_CORES, triton.cdiv(R, BR)),)
    _xrd_intensity[grid](hkl, recip, frac, coeff, z, occu, dw, out, R, N, wavelength, BR=BR, BN=BN)
    return out
