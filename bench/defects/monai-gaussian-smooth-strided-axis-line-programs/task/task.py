"""3-D separable Gaussian smoothing of a channel-first volume (MONAI GaussianSmooth / GaussianFilter).

The 1-D Gaussian taps (MONAI gaussian_1d, erf approximation, truncated at 4 sigma) are applied
along each spatial axis in turn (H, then W, then D) with zero padding, as MONAI's
separable_filtering does with conv1d-shaped kernels.
"""
import torch

META = {
    "name": "gaussian_smooth_3d",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"C": 1, "H": 8, "W": 6, "D": 5, "sigma": 0.8},
        "ragged": {"C": 1, "H": 9, "W": 7, "D": 5, "sigma": 1.0},
        "large": {"C": 4, "H": 240, "W": 240, "D": 155, "sigma": 1.5},
    },
    "baseline_notes": "Three passes (H, W, D) through two scratch volumes. The contiguous D pass gives each "
                      "program one line (BLOCK = next_power_of_2(D)); the H and W passes give each program a "
                      "[64, 32] tile of (filtered axis, contiguous trailing axis) and accumulate the taps over "
                      "shifted tile loads; 4 warps, no autotune.",
    "deterministic": True,
}


def gaussian_taps(sigma: float, truncated: float = 4.0) -> torch.Tensor:
    """MONAI gaussian_1d(sigma, truncated=4.0, approx="erf"), normalised to sum 1."""
    tail = int(max(float(sigma) * truncated, 0.5) + 0.5)
    x = torch.arange(-tail, tail + 1, dtype=torch.float64)
    t = 0.70710678 / sigma
    taps = 0.5 * (torch.erf(t * (x + 0.5)) - torch.erf(t * (x - 0.5)))
    taps = taps.clamp(min=0)
    return taps / taps.sum()


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """volume [C, H, W, D] (MR intensities, z-scored per channel), taps [2 * tail + 1] float32."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    vol = torch.randn(s["C"], s["H"], s["W"], s["D"], generator=g)
    vol[:, :, :, : max(1, s["D"] // 8)] = 0.0  # background slab outside the head
    taps = gaussian_taps(s["sigma"]).to(torch.float32)
    return vol.to(dt).to(device), taps.to(device)


def _smooth_axis(v: torch.Tensor, taps: torch.Tensor, dim: int) -> torch.Tensor:
    r = taps.numel() // 2
    n = v.shape[dim]
    shape = list(v.shape)
    shape[dim] = r
    zeros = torch.zeros(shape, dtype=v.dtype, device=v.device)
    padded = torch.cat([zeros, v, zeros], dim=dim)
    out = torch.zeros_like(v)
    for k in range(taps.numel()):
        out += taps[k] * padded.narrow(dim, k, n)
    return out


def reference(vol: torch.Tensor, taps: torch.Tensor) -> torch.Tensor:
    v = vol.double()
    t = taps.double()
    for dim in (1, 2, 3):
        v = _smooth_axis(v, t, dim)
    return v.to(vol.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["C"] * s["H"] * s["W"] * s["D"]
    k = 2 * int(max(s["sigma"] * 4.0, 0.5) + 0.5) + 1
    return {"bytes": 3 * 2 * 4 * n, "flops": 3 * 2 * k * n}
