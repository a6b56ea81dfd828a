"""Diffusion-tensor scalar maps (MRtrix3 tensor2metric -fa -adc -ad -rd).

The tensor image written by dwi2tensor has 6 volumes in MRtrix order D11, D22, D33, D12, D13, D23
(mm^2/s); with NIfTI/MRtrix strides (x fastest, volume slowest) it is the C-contiguous tensor D [6, Z, Y, X].
Per voxel, with tr = D11 + D22 + D33:
    ADC = tr / 3
    FA  = sqrt(1.5 * ||D - ADC I||_F^2 / ||D||_F^2)          (0 where D = 0, i.e. outside the brain)
    AD  = lambda_1 (largest eigenvalue),   RD = (lambda_2 + lambda_3) / 2 = (tr - lambda_1) / 2
lambda_1 in closed form (trigonometric solution of the characteristic cubic, Smith 1961), acos by the
Abramowitz-Stegun 4.4.46 polynomial. Returns (FA, ADC, AD, RD), each [Z, Y, X] fp32. Voxels outside an
ellipsoidal brain are zero; inside, tensors of white matter (randomly oriented, FA 0.5-0.9), grey
matter and CSF.
"""
import math

import torch

META = {
    "name": "tensor2metric",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-4}},
    "sizes": {
        "small": {"Z": 4, "Y": 6, "X": 10},
        "ragged": {"Z": 3, "Y": 7, "X": 11},
        "large": {"Z": 145, "Y": 174, "X": 145},
    },
    "baseline_notes": "One launch of 40 programs (the A2's vector cores) looping over blocks of 1024 voxels: the "
                      "six tensor planes are read once per block (contiguous), ADC and FA from the invariants, "
                      "lambda_1 from the closed-form cubic solution once, and the four maps stored together.",
    "deterministic": True,
}


def _random_rotations(n: int, g: torch.Generator) -> torch.Tensor:
    q = torch.randn(n, 4, generator=g, dtype=torch.float64)
    q = q / q.norm(dim=1, keepdim=True)
    w, x, y, z = q.unbind(1)
    return torch.stack([
        1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
        2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
        2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], dim=1).view(n, 3, 3)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """D [6, Z, Y, X] (D11, D22, D33, D12, D13, D23) in mm^2/s."""
    s = META["sizes"][size]
    nz, ny, nx = s["Z"], s["Y"], s["X"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    zz, yy, xx = torch.meshgrid(torch.linspace(-1, 1, nz, dtype=torch.float64),
                                torch.linspace(-1, 1, ny, dtype=torch.float64),
                                torch.linspace(-1, 1, nx, dtype=torch.float64), indexing="ij")
    brain = ((zz / 0.85) ** 2 + (yy / 0.9) ** 2 + (xx / 0.8) ** 2 <= 1.0).flatten()
    n = brain.numel()
    kind = torch.randint(0, 10, (n,), generator=g)          # 0-5 white matter, 6-8 grey matter, 9 CSF
    u = torch.rand(n, 3, generator=g, dtype=torch.float64)
    l1 = torch.where(kind < 6, 1.3e-3 + 0.6e-3 * u[:, 0], 0.75e-3 + 0.15e-3 * u[:, 0])
    l2 = torch.where(kind < 6, 0.2e-3 + 0.4e-3 * u[:, 1], 0.65e-3 + 0.15e-3 * u[:, 1])
    l3 = torch.where(kind < 6, 0.15e-3 + 0.35e-3 * u[:, 2], 0.6e-3 + 0.15e-3 * u[:, 2])
    evals = torch.stack([l1, l2, l3], dim=1)
    evals = torch.where((kind == 9)[:, None], 3.0e-3 + 0.05e-3 * u, evals)
    evals = evals * brain[:, None]
    R = _random_rotations(n, g)
    D = torch.einsum("nij,nj,nkj->nik", R, evals, R)
    comps = torch.stack([D[:, 0, 0], D[:, 1, 1], D[:, 2, 2], D[:, 0, 1], D[:, 0, 2], D[:, 1, 2]], dim=0)
    return (comps.reshape(6, nz, ny, nx).to(dt).to(device),)


def reference(D: torch.Tensor) -> tuple:
    d = D.double().reshape(6, -1)
    d11, d22, d33, d12, d13, d23 = d.unbind(0)
    tr = d11 + d22 + d33
    adc = tr / 3.0
    off = d12 * d12 + d13 * d13 + d23 * d23
    dev = (d11 - adc) ** 2 + (d22 - adc) ** 2 + (d33 - adc) ** 2 + 2.0 * off
    nrm = d11 * d11 + d22 * d22 + d33 * d33 + 2.0 * off
    fa = torch.where(nrm > 0, torch.sqrt(1.5 * dev / torch.where(nrm > 0, nrm, 1.0)), torch.zeros_like(nrm))
    M = torch.stack([torch.stack([d11, d12, d13], -1), torch.stack([d12, d22, d23], -1),
                     torch.stack([d13, d23, d33], -1)], -2)
    l1 = torch.linalg.eigvalsh(M)[:, 2]
    rd = (tr - l1) / 2.0
    shape = D.shape[1:]
    return tuple(m.reshape(shape).to(D.dtype) for m in (fa, adc, l1, rd))


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["Z"] * s["Y"] * s["X"]
    return {"bytes": 40 * n, "flops": 90 * n}
