"""Spectral angle mapper (Spectral Python `spectral.spectral_angles`, the SAM rule image).

For every pixel x of a band-interleaved-by-pixel reflectance cube [rows, cols, bands] and every
reference spectrum r_m of a library [members, bands]:

    angle[i, j, m] = arccos( clamp( x . r_m / (|x| |r_m|), -1, 1 ) )      (radians)

Returns the rule image [rows, cols, members] fp32, as SPy does. The synthetic scene mixes a few
of the library's smooth reflectance spectra (flat-Dirichlet abundances) with sensor noise, so the
angles span the small values (~0.01-0.5 rad) of a real SAM classification.
"""
import torch

META = {
    "name": "spectral_angles",
    "level": 2,
    "category": "hyperspectral",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"rows": 5, "cols": 9, "bands": 24, "members": 5},
        "ragged": {"rows": 7, "cols": 13, "bands": 37, "members": 11},
        "large": {"rows": 512, "cols": 614, "bands": 224, "members": 64},
    },
    "baseline_notes": "One program per 32 pixels holds the [32, 256] pixel tile and its norms in registers "
                      "and loops over the members inside the kernel: per member one row-wise dot with r_m, "
                      "the cosine, a polynomial arccos and a store of the angle column. One launch, 4 warps, "
                      "no autotune.",
    "deterministic": True,
}
MIXED = 4   # library spectra mixed into each pixel


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
    """Reflectance cube [rows, cols, bands] and spectral library [members, bands]."""
    s = META["sizes"][size]
    h, w, b, m = s["rows"], s["cols"], s["bands"], s["members"]
    n = h * w
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    wl = torch.linspace(400.0, 2500.0, b)
    members = _spectra(wl, m, g)
    pick = torch.randint(0, m, (n, MIXED), generator=g)
    expo = -torch.log(torch.rand(n, MIXED, generator=g))
    expo[:, 0] += 3.0 * torch.rand(n, generator=g)             # one dominant material per pixel
    abund = expo / expo.sum(1, keepdim=True)
    x = torch.zeros(n, b)
    for j in range(MIXED):
        x += abund[:, j:j + 1] * members[pick[:, j]]
    x += 0.004 * torch.randn(n, b, generator=g)
    return x.reshape(h, w, b).to(device=device, dtype=dt), members.to(device=device, dtype=dt)


def reference(x: torch.Tensor, members: torch.Tensor) -> torch.Tensor:
    h, w, b = x.shape
    flat = x.reshape(-1, b)
    lib = members.double()
    lib = lib / lib.norm(dim=1, keepdim=True)
    out = torch.empty(flat.shape[0], members.shape[0], dtype=torch.float64, device=x.device)
    for start in range(0, flat.shape[0], 65536):
        p = flat[start:start + 65536].double()
        cos = (p @ lib.T) / p.norm(dim=1, keepdim=True)
        out[start:start + 65536] = torch.arccos(cos.clamp(-1.0, 1.0))
    return out.reshape(h, w, -1).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n, b, m = s["rows"] * s["cols"], s["bands"], s["members"]
    return {"bytes": 4 * (n * b + m * b + n * m), "flops": 2 * n * b * (m + 1) + 20 * n * m}
