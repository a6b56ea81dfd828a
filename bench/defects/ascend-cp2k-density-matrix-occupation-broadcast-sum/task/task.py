"""Density matrix from MO coefficients and smeared occupations (CP2K calculate_density_matrix).

CP2K builds the AO density matrix of a spin channel from the MO coefficient matrix C (nao x nmo) and
the occupation numbers f_i (Fermi-Dirac smearing, 0 <= f_i <= 2 for a closed shell):
    P[m, n] = sum_i f_i C[m, i] C[n, i]
(cp_fm_column_scale of a copy of C by f, then parallel_gemm('N', 'T')). The coefficients are passed in
CP2K's full-matrix memory order: Fortran column-major nao x nmo, i.e. a row-major tensor c[nmo, nao]
whose row i is MO i. Returns P [nao, nao] fp32.
"""
import torch

META = {
    "name": "cp2k_density_matrix",
    "level": 2,
    "category": "electronic-structure",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-3}},
    "sizes": {
        "small": {"nao": 48, "nocc": 16, "added": 4},
        "ragged": {"nao": 67, "nocc": 10, "added": 3},
        # CP2K H2O-256 with DZVP-MOLOPT-SR-GTH (23 functions per water): nao = 5888, 1024 occupied
        # MOs + 256 ADDED_MOS for the Fermi-Dirac smearing: nmo = 1280
        "large": {"nao": 5888, "nocc": 1024, "added": 256},
    },
    "baseline_notes": "40 programs loop over 128 x 128 tiles of P; per tile a loop over the MOs in "
                      "steps of 32 loads the two [32, 128] coefficient panels (rows contiguous), "
                      "scales one by the occupations and accumulates tl.dot(trans(f * C_m), C_n) in "
                      "fp32 on the cube unit. No autotune.",
    "deterministic": True,
}
KT = 0.01  # Hartree, electronic temperature of the smearing


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """c [nmo, nao] (row i = MO i), occ [nmo] (Fermi-Dirac occupations, 2 = doubly occupied)."""
    s = META["sizes"][size]
    nao, nocc, nmo = s["nao"], s["nocc"], s["nocc"] + s["added"]
    dt = getattr(torch, dtype or META["dtypes"][0])
    g = torch.Generator().manual_seed(seed)
    c = torch.randn(nmo, nao, generator=g) / nao ** 0.5
    eig = torch.sort(torch.randn(nmo, generator=g, dtype=torch.float64) * 0.3).values
    mu = 0.5 * (eig[nocc - 1] + eig[nocc])
    occ = 2.0 / (1.0 + torch.exp((eig - mu) / KT))
    return c.to(device=device, dtype=dt), occ.to(device=device, dtype=dt)


def reference(c: torch.Tensor, occ: torch.Tensor) -> torch.Tensor:
    cd = c.double()
    return ((cd * occ.double()[:, None]).t() @ cd).to(c.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    nao, nmo = s["nao"], s["nocc"] + s["added"]
    return {"bytes": 4 * (nmo * nao + nmo + nao * nao), "flops": 2 * nao * nao * nmo}
