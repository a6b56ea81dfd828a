"""Kaiser-Bessel interpolation of the forward NUFFT (SigPy `sigpy.nufft` -> `interpolate`, kernel 'kaiser_bessel').

The forward NUFFT of a multi-coil image apodises (SigPy's _apodize), zero-pads to the oversampled grid
G = ceil(1.25 N) and FFTs (norm 'ortho'); this task is the last step, interpolating each coil's oversampled
Cartesian k-space at the non-Cartesian sample positions. For a sample at grid coordinates (ky, kx) (SigPy's
scaled coordinates, k * G / N + G // 2) the W x W window of grid points gy = floor(ky - W / 2) + 1 + dy,
gx = floor(kx - W / 2) + 1 + dx (dy, dx = 0 .. W-1, wrapped modulo G) is summed with separable Kaiser-Bessel
weights (SigPy's ceil/floor window, which differs only for samples exactly on a grid line)

    out[c, m] = sum_{dy, dx} K((gy - ky) / (W / 2)) K((gx - kx) / (W / 2)) grid[c, gy mod G, gx mod G]
    K(u)      = I0(beta sqrt(1 - u^2)),  beta = pi sqrt((W / 1.25 * (1.25 - 0.5))^2 - 0.8)

with I0 the Abramowitz-Stegun polynomial approximation SigPy uses (9.8.1 below 3.75, 9.8.2 above).
grid [C, G, G, 2] and out [C, M, 2] are interleaved complex fp32; coord [M, 2] holds (ky, kx).
"""
import math

import torch

META = {
    "name": "nufft_kb_interp",
    "level": 2,
    "category": "gather",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"C": 2, "N": 12, "spokes": 2, "readout": 12},
        "ragged": {"C": 3, "N": 20, "spokes": 5, "readout": 22},
        "large": {"C": 16, "N": 256, "spokes": 402, "readout": 512},
    },
    "baseline_notes": "Programs of 32 samples: the [32, 16] tap tile's grid offsets and Kaiser-Bessel weights "
                      "are computed once, then a loop over coils gathers a [32, 16, 2] tile of the coil's "
                      "oversampled grid, reduces over the taps and stores [32, 2]. 4 warps, no autotune.",
    "deterministic": True,
}
OVERSAMP = 1.25
WIDTH = 4
GOLDEN = math.radians(111.246117975)


def kb_beta(width: int = WIDTH, oversamp: float = OVERSAMP) -> float:
    return math.pi * math.sqrt(((width / oversamp) * (oversamp - 0.5)) ** 2 - 0.8)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """grid [C, G, G, 2] (oversampled k-space of every coil), coord [M, 2] (ky, kx in grid units), W, beta."""
    s = META["sizes"][size]
    C, N, S, R = s["C"], s["N"], s["spokes"], s["readout"]
    G = math.ceil(OVERSAMP * N)
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    yy, xx = torch.meshgrid(torch.linspace(-1, 1, N, dtype=torch.float64),
                            torch.linspace(-1, 1, N, dtype=torch.float64), indexing="ij")
    img = ((xx / 0.7) ** 2 + (yy / 0.85) ** 2 <= 1).double()
    for _ in range(5):
        cx, cy = (torch.rand(2, generator=g, dtype=torch.float64) - 0.5) * 0.8
        ax, ay = 0.05 + 0.2 * torch.rand(2, generator=g, dtype=torch.float64)
        img += (0.6 - torch.rand(1, generator=g, dtype=torch.float64)) * (((xx - cx) / ax) ** 2 + ((yy - cy) / ay) ** 2 <= 1)
    ang = 2 * math.pi * torch.arange(C, dtype=torch.float64) / C
    sens = torch.exp(-((xx[None] - 1.1 * torch.cos(ang)[:, None, None]) ** 2
                       + (yy[None] - 1.1 * torch.sin(ang)[:, None, None]) ** 2) / 1.2) * torch.exp(1j * ang[:, None, None])
    # SigPy's _apodize (pre-compensation of the Kaiser-Bessel roll-off) along both axes
    i = torch.arange(N, dtype=torch.float64)
    apod = torch.sqrt(kb_beta() ** 2 - (math.pi * WIDTH * (i - N // 2) / G) ** 2)
    apod = apod / torch.sinh(apod)
    coil = sens * img[None] * apod[:, None] * apod[None, :]
    pad = torch.zeros(C, G, G, dtype=torch.complex128)
    o = G // 2 - N // 2
    pad[:, o:o + N, o:o + N] = coil
    ksp = torch.fft.fftshift(torch.fft.fftn(torch.fft.ifftshift(pad, dim=(-2, -1)), dim=(-2, -1), norm="ortho"), dim=(-2, -1))
    ksp = ksp + (torch.randn(C, G, G, 2, generator=g, dtype=torch.float64) * 1e-5).view(torch.complex128).squeeze(-1)
    # golden-angle radial trajectory, readout oversampled 2x when readout = 2N
    k = (torch.arange(R, dtype=torch.float64) - R / 2) * (N / R)
    theta = torch.arange(S, dtype=torch.float64) * GOLDEN
    ky = (torch.sin(theta)[:, None] * k[None, :]).reshape(-1)
    kx = (torch.cos(theta)[:, None] * k[None, :]).reshape(-1)
    coord = torch.stack([ky, kx], dim=-1) * (G / N) + G // 2
    cast = lambda v: v.to(dtype=dt).to(device).contiguous()
    return cast(torch.view_as_real(ksp)), cast(coord), WIDTH, kb_beta()


def _kaiser_bessel(u: torch.Tensor, beta: float) -> torch.Tensor:
    x = beta * torch.sqrt(torch.clamp(1 - u * u, min=0))
    t2 = (x / 3.75) ** 2
    small = 1 + t2 * (3.5156229 + t2 * (3.0899424 + t2 * (1.2067492 + t2 * (0.2659732 + t2 * (0.0360768 + t2 * 0.0045813)))))
    xl = torch.clamp(x, min=3.75)
    r = 3.75 / xl
    large = torch.exp(xl) / torch.sqrt(xl) * (0.39894228 + r * (0.01328592 + r * (0.00225319 + r * (-0.00157565 + r * (
        0.00916281 + r * (-0.02057706 + r * (0.02635537 + r * (-0.01647633 + r * 0.00392377))))))))
    return torch.where(x < 3.75, small, large)


def reference(grid: torch.Tensor, coord: torch.Tensor, width: int, beta: float) -> torch.Tensor:
    C, G = grid.shape[0], grid.shape[1]
    ksp = torch.view_as_complex(grid.double().contiguous()).reshape(C, G * G)
    ky, kx = coord[:, 0].double(), coord[:, 1].double()
    y0 = torch.floor(ky - width / 2) + 1
    x0 = torch.floor(kx - width / 2) + 1
    out = torch.zeros(C, coord.shape[0], dtype=torch.complex128, device=grid.device)
    for dy in range(width):
        gy = y0 + dy
        wy = _kaiser_bessel((gy - ky) / (width / 2), beta)
        for dx in range(width):
            gx = x0 + dx
            w = wy * _kaiser_bessel((gx - kx) / (width / 2), beta)
            idx = torch.remainder(gy.long(), G) * G + torch.remainder(gx.long(), G)
            out += w * ksp[:, idx]
    return torch.view_as_real(out).to(grid.dtype).contiguous()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    m = s["spokes"] * s["readout"]
    G = math.ceil(OVERSAMP * s["N"])
    return {"bytes": 8 * s["C"] * (G * G + m) + 8 * m, "flops": 4 * WIDTH * WIDTH * s["C"] * m}
