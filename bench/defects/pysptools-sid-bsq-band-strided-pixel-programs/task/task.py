"""Spectral information divergence map (pysptools `distance.SID`, as its SID classifier applies it
to every pixel against one library spectrum) on a band-sequential (BSQ) cube.

The cube is [bands, rows, cols] (an ENVI BSQ file, or the channels-first tensor of a PyTorch
hyperspectral pipeline). For pixel spectrum s and reference spectrum r, with p = s / sum(s) and
q = r / sum(r) (band probability vectors):

    SID(s, r) = sum_b p_b log(p_b / q_b) + q_b log(q_b / p_b) = sum_b (p_b - q_b) log(p_b / q_b)

Returns the SID image [rows, cols] fp32. Reflectances are strictly positive (clipped at 1e-3, as
reflectance products are), so every logarithm is finite.
"""
import numpy as np
import torch

META = {
    "name": "sid_map_bsq",
    "level": 1,
    "category": "hyperspectral",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-3}},
    "sizes": {
        "small": {"bands": 24, "rows": 6, "cols": 7},
        "ragged": {"bands": 37, "rows": 9, "cols": 11},
        "large": {"bands": 224, "rows": 512, "cols": 614},
    },
    "baseline_notes": "One program per 32 neighbouring pixels loads the [bands (padded to a power of two), "
                      "32] BSQ tile with the pixel axis contiguous (one 128-byte row per band), normalises "
                      "each pixel column by its band sum and reduces (p - q) log(p / q) over the bands. "
                      "8 warps, no autotune.",
    "deterministic": True,
}
LIBRARY = 12   # library spectra the scene is mixed from
MIXED = 4      # spectra mixed into each pixel


def _spectra(wl: torch.Tensor, k: int, g: torch.Generator) -> torch.Tensor:
    """k smooth reflectance curves over wavelengths wl (nm): a sloped continuum with absorption dips."""
    base = 0.15 + 0.35 * torch.rand(k, 1, generator=g) + 0.1 * torch.rand(k, 1, generator=g) * (wl - 400) / 2100
    for _ in range(4):
        centre = 450 + 2000 * torch.rand(k, 1, generator=g)
        width = 30 + 150 * torch.rand(k, 1, generator=g)
        depth = 0.12 * torch.rand(k, 1, generator=g)
        base = base - depth * torch.exp(-0.5 * ((wl - centre) / width) ** 2)
    return base.clamp(min=0.02)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """BSQ reflectance cube [bands, rows, cols] and the reference spectrum [bands]."""
    s = META["sizes"][size]
    b, h, w = s["bands"], s["rows"], s["cols"]
    n = h * w
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    wl = torch.linspace(400.0, 2500.0, b)
    library = _spectra(wl, LIBRARY, g)
    pick = torch.randint(0, LIBRARY, (n, MIXED), generator=g)
    expo = -torch.log(torch.rand(n, MIXED, generator=g))
    abund = expo / expo.sum(1, keepdim=True)
    pixels = torch.zeros(n, b)
    for j in range(MIXED):
        pixels += abund[:, j:j + 1] * library[pick[:, j]]
    pixels += 0.004 * torch.randn(n, b, generator=g)
    cube = pixels.clamp(min=1e-3).T.contiguous()              # band-sequential
    ref = library[0]
    return cube.reshape(b, h, w).to(device=device, dtype=dt), ref.to(device=device, dtype=dt)


def reference(cube: torch.Tensor, ref: torch.Tensor) -> torch.Tensor:
    b, h, w = cube.shape
    eps = float(np.spacing(1))
    s = cube.reshape(b, -1).double()
    q = ref.double() / ref.double().sum() + eps
    out = torch.empty(s.shape[1], dtype=torch.float64, device=cube.device)
    for start in range(0, s.shape[1], 65536):
        chunk = s[:, start:start + 65536]
        p = chunk / chunk.sum(0, keepdim=True) + eps
        out[start:start + 65536] = (p * torch.log(p / q[:, None]) + q[:, None] * torch.log(q[:, None] / p)).sum(0)
    return out.reshape(h, w).to(cube.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n, b = s["rows"] * s["cols"], s["bands"]
    return {"bytes": 4 * (n * b + b + n), "flops": 6 * n * b}
