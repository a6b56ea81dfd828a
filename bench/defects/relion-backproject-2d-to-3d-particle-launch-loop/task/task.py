"""Fourier-space back-projection of particle images into a 3-D map (RELION BackProjector::backproject2Dto3D).

Each particle n contributes its CTF-weighted Fourier transform to the reconstruction: the pixel (x, y) of
its half-plane FFT (FFTW layout, windowed to the current size CS: row i holds y = i for i < CS/2, else
i - CS; column x = 0..CS/2), kept when x^2 + y^2 < (CS/2)^2, lands on the 3-D point
    p = pad * A_n^T (x, y, 0)
of the padded half-complex volume (A_n the particle's 3x3 Euler matrix, pad the oversampling factor).
Only x >= 0 is stored: a point with p_x < 0 is mirrored (p -> -p) and its value conjugated. The value
ctf * F and the weight ctf^2 are spread trilinearly onto the 8 voxels around p:
    data[z, y, x]   += w_corner * ctf * F     (complex, stored as [..., 2])
    weight[z, y, x] += w_corner * ctf^2
with voxel index (x0, y0 + R, z0 + R) for the corner at the floor of p and R = pad * ori_size / 2.
Volume shapes: data [2R+1, 2R+1, R+1, 2], weight [2R+1, 2R+1, R+1], both fp32 and zero before the batch.
"""
import math

import torch

META = {
    "name": "backproject_2d_to_3d",
    "level": 2,
    "category": "scatter",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"N": 3, "ori_size": 16, "current_size": 16, "pad": 2},
        "ragged": {"N": 5, "ori_size": 20, "current_size": 14, "pad": 2},
        "large": {"N": 4096, "ori_size": 128, "current_size": 64, "pad": 2},
    },
    "baseline_notes": "One launch over grid (pixel blocks of 256, particles): each program reads its particle's "
                      "Euler matrix, rotates 256 pixels of the windowed half-plane FFT into the padded volume, "
                      "mirrors p_x < 0 with conjugation, and adds ctf*F and ctf^2 to the 8 trilinear corners with "
                      "relaxed fp32 atomics (RELION's GPU back-projector). 4 warps, no autotune.",
    "deterministic": True,
}


def _euler_matrices(n: int, g: torch.Generator) -> torch.Tensor:
    """RELION Euler_angles2matrix (ZYZ: rot, tilt, psi) for uniformly random orientations."""
    rot = torch.rand(n, generator=g, dtype=torch.float64) * 2 * math.pi
    tilt = torch.acos(1 - 2 * torch.rand(n, generator=g, dtype=torch.float64))
    psi = torch.rand(n, generator=g, dtype=torch.float64) * 2 * math.pi
    ca, sa = torch.cos(rot), torch.sin(rot)
    cb, sb = torch.cos(tilt), torch.sin(tilt)
    cg, sg = torch.cos(psi), torch.sin(psi)
    cc, cs, sc, ss = cb * ca, cb * sa, sb * ca, sb * sa
    a = torch.stack([
        torch.stack([cg * cc - sg * sa, cg * cs + sg * ca, -cg * sb], -1),
        torch.stack([-sg * cc - cg * sa, -sg * cs + cg * ca, sg * sb], -1),
        torch.stack([sc, ss, cb], -1),
    ], -2)
    return a


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """fimg [N, CS, CS/2+1, 2] (complex half-plane FFTs), ctf [N, CS, CS/2+1], A [N, 3, 3], ori_size, pad.

    The Euler matrices are rounded to multiples of 1/4096, so that pad * A^T (x, y, 0) is exact in fp32 for the
    integer pixel coordinates: the mirror test p_x < 0 and the corner floors then agree bit for bit with the
    fp64 reference (a point a rounding error away from p_x = 0 would otherwise land on its Friedel mate).
    """
    s = META["sizes"][size]
    n, cs, ori, pad = s["N"], s["current_size"], s["ori_size"], s["pad"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    w = cs // 2 + 1
    y = torch.arange(cs).where(torch.arange(cs) < cs // 2, torch.arange(cs) - cs).double()
    r2 = y[:, None] ** 2 + torch.arange(w).double()[None, :] ** 2
    envelope = torch.exp(-r2 / (0.5 * ori) ** 2)
    fimg = torch.randn(n, cs, w, 2, generator=g, dtype=torch.float64) * envelope[None, :, :, None]
    defocus = 1.0 + torch.rand(n, 1, 1, generator=g, dtype=torch.float64)
    ctf = -torch.sin(defocus * r2[None] * (12.0 / ori ** 2) + 0.1)
    a = torch.round(_euler_matrices(n, g) * 4096.0) / 4096.0
    return (fimg.to(device=device, dtype=dt), ctf.to(device=device, dtype=dt), a.to(device=device, dtype=dt),
            ori, pad)


def reference(fimg: torch.Tensor, ctf: torch.Tensor, a: torch.Tensor, ori_size: int, pad: int) -> tuple:
    n, cs, w, _ = fimg.shape
    dev = fimg.device
    r = pad * (ori_size // 2)
    ys, xs = 2 * r + 1, r + 1
    rows = torch.arange(cs, device=dev)
    y = torch.where(rows < cs // 2, rows, rows - cs).double()[:, None].expand(cs, w)
    x = torch.arange(w, device=dev).double()[None, :].expand(cs, w)
    keep = (x * x + y * y) < (cs // 2) ** 2
    x, y = x[keep], y[keep]
    A = a.double()
    px = pad * (A[:, 0, 0, None] * x + A[:, 1, 0, None] * y)
    py = pad * (A[:, 0, 1, None] * x + A[:, 1, 1, None] * y)
    pz = pad * (A[:, 0, 2, None] * x + A[:, 1, 2, None] * y)
    c = ctf.double()[:, keep]
    re = fimg.double()[:, keep, 0] * c
    im = fimg.double()[:, keep, 1] * c
    wt = c * c
    neg = px < 0
    px, py, pz = torch.where(neg, -px, px), torch.where(neg, -py, py), torch.where(neg, -pz, pz)
    im = torch.where(neg, -im, im)
    x0, y0, z0 = torch.floor(px), torch.floor(py), torch.floor(pz)
    fx, fy, fz = px - x0, py - y0, pz - z0
    x0, y0, z0 = x0.long(), y0.long() + r, z0.long() + r
    data = torch.zeros(ys * ys * xs * 2, dtype=torch.float64, device=dev)
    weight = torch.zeros(ys * ys * xs, dtype=torch.float64, device=dev)
    for dz in (0, 1):
        for dy in (0, 1):
            for dx in (0, 1):
                f = ((fz if dz else 1 - fz) * (fy if dy else 1 - fy) * (fx if dx else 1 - fx)).reshape(-1)
                idx = (((z0 + dz) * ys + (y0 + dy)) * xs + (x0 + dx)).reshape(-1)
                data.index_add_(0, 2 * idx, f * re.reshape(-1))
                data.index_add_(0, 2 * idx + 1, f * im.reshape(-1))
                weight.index_add_(0, idx, f * wt.reshape(-1))
    return (data.view(ys, ys, xs, 2).to(fimg.dtype), weight.view(ys, ys, xs).to(fimg.dtype))


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n, cs, ori, pad = s["N"], s["current_size"], s["ori_size"], s["pad"]
    r = pad * (ori // 2)
    pix = n * cs * (cs // 2 + 1)
    inside = n * math.pi * (cs // 2) ** 2 / 2
    return {"bytes": 12 * pix + 36 * n + 12 * (2 * r + 1) ** 2 * (r + 1) + int(8 * 3 * 4 * inside),
            "flops": int(60 * inside)}
