"""Powder XRD peak intensities of every reflection (pymatgen XRDCalculator.get_pattern, before peak merging).

For each reciprocal-lattice point hkl inside the 2-theta range, with g = |hkl @ R| (R the crystallographic
reciprocal lattice, rows = basis vectors, no 2 pi), s = g / 2 = sin(theta) / lambda, s2 = s^2:

    f_j(s)  = Z_j - 41.78214 * s2 * sum_k a_jk exp(-b_jk s2)          (pymatgen's 4-term table)
    F(hkl)  = sum_j f_j(s) * occu_j * exp(-B_j s2) * exp(2 pi i hkl . x_j)
    I(hkl)  = |F|^2 * (1 + cos^2 2theta) / (sin^2 theta cos theta)      (Lorentz-polarization)

Returns the unscaled I(hkl) in fp32. Per-reflection and per-site arrays are stored component-major
(hkl [3, R], frac [3, N], coeff [8, N] = a_1..a_4, b_1..b_4) so every component is a contiguous row.
"""
import math

import torch

META = {
    "name": "xrd_reflection_intensity",
    "level": 2,
    "category": "crystallography",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 5.0, "rtol": 2e-3}},
    "sizes": {
        "small": {"a": 6.9, "sites_per_fu": 1, "wavelength": 1.54184, "two_theta_max": 48.0},
        "ragged": {"a": 7.3, "sites_per_fu": 2, "li_vacancies": 7, "wavelength": 1.54184, "two_theta_max": 52.0},
        "large": {"a": 12.97, "sites_per_fu": 8, "wavelength": 0.71073, "two_theta_max": 70.0},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 32 reflections; each block "
                      "computes g, s2 and the Lorentz-polarization factor once per reflection and walks the "
                      "sites in chunks of 64 with [32, 64] tiles (g.r phase reduced to [0, 1) before sin/cos, "
                      "4-term form factor, Debye-Waller), summing Re/Im of F along the site axis; no autotune.",
    "deterministic": True,
}

# pymatgen atomic_scattering_params.json entries ([a, b] x 4) and Z for cubic LLZO garnet Li7La3Zr2O12
_SPECIES = {
    "Li": (3, [[1.611, 107.638], [1.246, 30.48], [0.326, 4.533], [0.099, 0.495]], 0.875),
    "La": (57, [[4.94, 28.716], [3.968, 5.245], [1.663, 0.594], [0.0, 0.0]], 1.0),
    "Zr": (40, [[4.105, 28.492], [3.144, 5.277], [1.229, 0.601], [0.0, 0.0]], 1.0),
    "O": (8, [[0.455, 23.78], [0.917, 7.622], [0.472, 2.144], [0.138, 0.296]], 1.0),
}
_PER_FU = {"Li": 7, "La": 3, "Zr": 2, "O": 12}   # 24 sites per formula unit, 8 f.u. per cell


def _reflections(a: float, wavelength: float, two_theta_max: float) -> torch.Tensor:
    g_max = 2.0 * math.sin(math.radians(two_theta_max / 2.0)) / wavelength
    h_max = int(math.floor(g_max * a))
    r = torch.arange(-h_max, h_max + 1, dtype=torch.float64)
    hkl = torch.cartesian_prod(r, r, r)
    g = hkl.norm(dim=1) / a
    keep = (g > 0) & (g <= g_max)
    return hkl[keep]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """hkl [3, R], recip [3, 3], frac [3, N], coeff [8, N], z [N], occu [N], dw [N], wavelength (float)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    a = s["a"] * (1.0 + 0.01 * (torch.rand(1, generator=g).item() - 0.5))
    # slightly tetragonal / sheared cell so that g is not a function of h^2 + k^2 + l^2 alone
    lat = torch.tensor([[a, 0.0, 0.0], [0.02 * a, a, 0.0], [0.0, 0.0, 1.003 * a]], dtype=torch.float64)
    recip = torch.linalg.inv(lat).T
    hkl = _reflections(a, s["wavelength"], s["two_theta_max"])
    hkl = hkl[(hkl @ recip).norm(dim=1) <= 2.0 * math.sin(math.radians(s["two_theta_max"] / 2.0)) / s["wavelength"]]
    names = [n for n, k in _PER_FU.items() for _ in range(k * s["sites_per_fu"])]
    names = names[s.get("li_vacancies", 0):]                                 # empty Li sites dropped
    n = len(names)
    frac = torch.rand(n, 3, generator=g, dtype=torch.float64)
    coeff = torch.tensor([[c[0] for c in _SPECIES[x][1]] + [c[1] for c in _SPECIES[x][1]] for x in names],
                         dtype=torch.float64)
    z = torch.tensor([float(_SPECIES[x][0]) for x in names], dtype=torch.float64)
    occu = torch.tensor([_SPECIES[x][2] for x in names], dtype=torch.float64)
    dw = 0.3 + 0.6 * torch.rand(n, generator=g, dtype=torch.float64)          # B factors, A^2
    cast = lambda t: t.to(dt).contiguous().to(device)  # noqa: E731
    return (cast(hkl.T), cast(recip), cast(frac.T), cast(coeff.T), cast(z), cast(occu), cast(dw),
            float(s["wavelength"]))


def reference(hkl, recip, frac, coeff, z, occu, dw, wavelength):
    h = hkl.double().T                                    # [R, 3]
    gvec = h @ recip.double()
    s2 = (gvec.norm(dim=1) / 2.0) ** 2                    # [R]
    c = coeff.double()
    gauss = (c[:4, None, :] * torch.exp(-c[4:, None, :] * s2[None, :, None])).sum(0)     # [R, N]
    fs = z.double()[None, :] - 41.78214 * s2[:, None] * gauss
    amp = fs * occu.double()[None, :] * torch.exp(-dw.double()[None, :] * s2[:, None])
    phase = 2.0 * math.pi * (h @ frac.double())          # [R, N]
    re = (amp * torch.cos(phase)).sum(1)
    im = (amp * torch.sin(phase)).sum(1)
    sin_t = wavelength * torch.sqrt(s2)
    sin2 = sin_t * sin_t
    cos_t = torch.sqrt(1.0 - sin2)
    cos_2t = 1.0 - 2.0 * sin2
    lorentz = (1.0 + cos_2t * cos_2t) / (sin2 * cos_t)
    return ((re * re + im * im) * lorentz).to(hkl.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    r = len(_reflections(s["a"], s["wavelength"], s["two_theta_max"]))
    n = 24 * s["sites_per_fu"] - s.get("li_vacancies", 0)
    return {"bytes": 16 * r + 60 * n, "flops": r * n * 60}
