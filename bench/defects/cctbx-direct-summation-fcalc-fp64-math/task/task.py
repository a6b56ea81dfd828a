"""Calculated structure factors by direct summation over an atom list (cctbx
xray.structure_factors.from_scatterers(algorithm="direct"), isotropic atoms, expanded to P1).

For every Miller index h = (h, k, l) with (sin(theta)/lambda)^2 = s2 and every atom j with
fractional position x_j, isotropic B_j, occupancy q_j and element type t_j (C, N, O, S):

    f0_t(s2) = sum_{i=1..4} a_ti exp(-b_ti s2) + c_t              (Cromer-Mann / ITC Vol. C 6.1.1.4)
    F(h)     = sum_j q_j f0_{t_j}(s2) exp(-B_j s2) exp(2 pi i h . x_j)

Returns (A, B) = (Re F, Im F), each fp32 [n_refl].
"""
import torch

META = {
    "name": "structure_factors_direct",
    "level": 2,
    "category": "crystallography",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 5e-2, "rtol": 1e-3}},
    "sizes": {
        "small": {"n_refl": 70, "n_atoms": 45},
        "ragged": {"n_refl": 133, "n_atoms": 97},
        "large": {"n_refl": 65536, "n_atoms": 4096},
    },
    "baseline_notes": "Grid over blocks of 32 reflections; each program evaluates the four Cromer-Mann form "
                      "factors of its reflections once, then walks the atom list in chunks of 64 atoms, "
                      "accumulating q f0 exp(-B s2) cos/sin(2 pi frac(h.x)) in fp32 [32, 64] register tiles "
                      "that are reduced once at the end. The phase h.x is reduced to [0, 1) cycles before the "
                      "sin/cos so fp32 keeps ~1e-5 rad. 4 warps, no autotune.",
    "deterministic": True,
}

# Cromer-Mann coefficients (a1..a4, b1..b4, c), International Tables Vol. C, Table 6.1.1.4.
CROMER_MANN = [
    [2.3100, 1.0200, 1.5886, 0.8650, 20.8439, 10.2075, 0.5687, 51.6512, 0.2156],   # C
    [12.2126, 3.1322, 2.0125, 1.1663, 0.0057, 9.8933, 28.9975, 0.5826, -11.5290],  # N
    [3.0485, 2.2868, 1.5463, 0.8670, 13.2771, 5.7011, 0.3239, 32.9089, 0.2508],    # O
    [6.9053, 5.2034, 1.4379, 1.5863, 1.4679, 22.2151, 0.2536, 56.1720, 0.8669],    # S
]
CELL = (61.2, 48.7, 73.9)  # orthorhombic cell edges in Angstrom (P1 expansion of a ~45 kDa protein)
D_MIN = 1.8


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """hkl int32 [n_refl, 3], s2 fp32 [n_refl], xyz_frac fp32 [n_atoms, 3], b_iso fp32 [n_atoms],
    occ fp32 [n_atoms], atom_type int32 [n_atoms] (0 C, 1 N, 2 O, 3 S), coeffs fp32 [4, 9]."""
    s = META["sizes"][size]
    n_refl, n_atoms = s["n_refl"], s["n_atoms"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    cell = torch.tensor(CELL, dtype=torch.float64)
    hmax = torch.ceil(cell / D_MIN).long()
    # Draw reflections inside the resolution sphere (rejection sampling on the index box).
    hkl = torch.empty(0, 3, dtype=torch.long)
    while hkl.shape[0] < n_refl:
        cand = torch.stack([torch.randint(-int(m), int(m) + 1, (4 * n_refl,), generator=g) for m in hmax], 1)
        d_star_sq = ((cand.double() / cell) ** 2).sum(1)
        ok = (d_star_sq > 0) & (d_star_sq <= 1.0 / D_MIN ** 2)
        hkl = torch.cat([hkl, cand[ok]])
    hkl = hkl[:n_refl]
    s2 = ((hkl.double() / cell) ** 2).sum(1) / 4.0
    xyz = torch.rand(n_atoms, 3, generator=g)
    b_iso = 12.0 + 25.0 * torch.rand(n_atoms, generator=g)
    occ = torch.where(torch.rand(n_atoms, generator=g) < 0.9, 1.0, 0.5)
    atom_type = torch.multinomial(torch.tensor([0.63, 0.17, 0.19, 0.01]), n_atoms, replacement=True,
                                  generator=g)
    coeffs = torch.tensor(CROMER_MANN)
    return (hkl.to(device=device, dtype=torch.int32), s2.to(device=device, dtype=dt),
            xyz.to(device=device, dtype=dt), b_iso.to(device=device, dtype=dt), occ.to(device=device, dtype=dt),
            atom_type.to(device=device, dtype=torch.int32), coeffs.to(device=device, dtype=dt))


def reference(hkl, s2, xyz, b_iso, occ, atom_type, coeffs) -> tuple:
    h, s, x = hkl.double(), s2.double(), xyz.double()
    c = coeffs.double()
    f0 = (c[None, :, 0:4] * torch.exp(-c[None, :, 4:8] * s[:, None, None])).sum(-1) + c[None, :, 8]  # [R, 4]
    a_sum = torch.zeros(h.shape[0], dtype=torch.float64, device=h.device)
    b_sum = torch.zeros_like(a_sum)
    for start in range(0, x.shape[0], 512):
        sl = slice(start, start + 512)
        f = f0[:, atom_type[sl].long()] * occ[sl].double()[None, :] * torch.exp(-b_iso[sl].double()[None, :] * s[:, None])
        phase = 2.0 * torch.pi * (h @ x[sl].T)
        a_sum += (f * torch.cos(phase)).sum(1)
        b_sum += (f * torch.sin(phase)).sum(1)
    return a_sum.to(s2.dtype), b_sum.to(s2.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 16 * s["n_refl"] + 24 * s["n_atoms"], "flops": 40 * s["n_refl"] * s["n_atoms"]}
