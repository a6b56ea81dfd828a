"""Binned 1-D power spectrum of a periodic N-body box (nbodykit FFTPower(mode='1d') / project_to_basis, pmwd powspec).

Input p3d [N, N, N//2+1] is |delta(k)|^2 * V on the r2c half mesh of an N^3 mesh in a box of side L (Mpc/h).
Mode (ix, iy, iz) has |k| = kf * sqrt(fx^2 + fy^2 + iz^2), kf = 2 pi / L, with fx = ix for ix < (N+1)//2 and
ix - N otherwise (numpy fftfreq order; fy likewise); since only squares enter, fx^2 = min(ix, N - ix)^2.
The k axis is cut into n_bins linear bins of width dk = k_Nyq / n_bins from 0 to the Nyquist k_Nyq = kf * N / 2:
bin = floor(sqrt(f^2) * (2 n_bins / N)) evaluated in fp32 (so kernels and reference agree on the edges), kept
when bin < n_bins (modes beyond the Nyquist sphere are dropped). The r2c half mesh stores each mode with
0 < iz < N/2 for itself and its complex conjugate, so it counts twice (hermitian weight w = 2); the planes
iz = 0 and (N even) iz = N/2 count once. Per bin:
    modes = sum w,   k = sum w |k| / modes,   power = sum w p3d / modes      (k = power = 0 for an empty bin)
Returns (k [n_bins] fp32, power [n_bins] fp32, modes [n_bins] int32).
"""
import math

import torch

META = {
    "name": "fftpower_1d_binning",
    "level": 2,
    "category": "histogram",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 16, "n_bins": 8, "L": 250.0},
        "ragged": {"N": 11, "n_bins": 5, "L": 100.0},
        "large": {"N": 256, "n_bins": 64, "L": 1000.0},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over tiles of 8 iy rows x 16 iz modes of one ix "
                      "plane; each tile's bin index (from the fftfreq indices, fp32 sqrt) is compared with the "
                      "n_bins bin ids and the weighted power, k and mode count are accumulated per bin in "
                      "[16, n_bins] on-chip accumulators; each program adds its per-bin totals with one "
                      "n_bins-wide vector atomic per quantity, a one-program kernel divides. No autotune.",
    "deterministic": True,
}


def _fold2(n: int) -> torch.Tensor:
    i = torch.arange(n, dtype=torch.int64)
    return torch.minimum(i, n - i) ** 2


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """p3d [N, N, N//2+1] (a CDM-like P(k) times exponential |delta|^2 scatter plus shot noise), L, n_bins."""
    s = META["sizes"][size]
    n, n_bins, box = s["N"], s["n_bins"], s["L"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    nz = n // 2 + 1
    kf = 2.0 * math.pi / box
    f2 = _fold2(n)[:, None, None] + _fold2(n)[None, :, None] + (torch.arange(nz) ** 2)[None, None, :]
    k = kf * f2.double().sqrt()
    x = k / 0.02
    pk = 2.5e4 * x / (1.0 + x * x) ** 1.4 + 60.0
    scatter = -torch.log1p(-torch.rand(n, n, nz, generator=g, dtype=torch.float64))
    p3d = (pk * scatter).to(dt).to(device)
    return p3d, box, n_bins


def reference(p3d: torch.Tensor, box: float, n_bins: int) -> tuple:
    n = p3d.shape[0]
    nz = p3d.shape[2]
    dev = p3d.device
    f2 = (_fold2(n)[:, None, None] + _fold2(n)[None, :, None] + (torch.arange(nz) ** 2)[None, None, :]).to(dev)
    root = torch.sqrt(f2.to(torch.float32))
    scale = torch.tensor(2.0 * n_bins / n, dtype=torch.float32, device=dev)
    b = torch.floor(root * scale).to(torch.int64)
    iz = torch.arange(nz, device=dev)
    w = torch.where((iz == 0) | (2 * iz == n), 1.0, 2.0).to(torch.float64).expand(n, n, nz)
    keep = b < n_bins
    kmag = (2.0 * math.pi / box) * f2.double().sqrt()
    bk, wk = b[keep], w[keep]
    modes = torch.bincount(bk, weights=wk, minlength=n_bins)
    ksum = torch.bincount(bk, weights=wk * kmag[keep], minlength=n_bins)
    psum = torch.bincount(bk, weights=wk * p3d.double()[keep], minlength=n_bins)
    safe = modes.clamp(min=1.0)
    k = torch.where(modes > 0, ksum / safe, torch.zeros_like(ksum))
    power = torch.where(modes > 0, psum / safe, torch.zeros_like(psum))
    return k.to(p3d.dtype), power.to(p3d.dtype), modes.round().to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["N"]
    m = n * n * (n // 2 + 1)
    return {"bytes": 4 * m + 12 * s["n_bins"], "flops": 12 * m}
