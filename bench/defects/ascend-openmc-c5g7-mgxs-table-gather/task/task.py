"""Multigroup cross-section lookup of the event-based transport loop (OpenMC multigroup mode, calculate_xs event).

In multigroup mode a particle carries its energy group g instead of a continuous energy, and the lookup is a
table read: Mgxs::calculate_xs gives the particle the macroscopic total, absorption and nu-fission cross
sections of its material m in group g. Modelled on the C5G7 MOX benchmark: 7 materials (UO2, MOX 4.3 %,
MOX 7.0 %, MOX 8.7 %, fission chamber, guide tube, moderator) x 7 groups, tables [3, 7, 7] =
(Sigma_t, Sigma_a, nu-Sigma_f) with values in C5G7's ranges (drawn, not the benchmark's numbers). The kernel
fills the particle bank's cross-section fields, stored as structure-of-arrays [3, N].
"""
import torch

META = {
    "name": "mg_xs_lookup",
    "level": 1,
    "category": "monte-carlo-transport",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-6}},
    "sizes": {
        "small": {"N": 1000, "n_mat": 7, "G": 7},
        "ragged": {"N": 1237, "n_mat": 7, "G": 7},
        "large": {"N": 4194304, "n_mat": 7, "G": 7},
    },
    "baseline_notes": "40 programs (the 910B's vector cores) loop over blocks of 128 particles; each program loads "
                      "the three 49-entry tables once as 64-wide tiles kept in the UB, and every particle picks its "
                      "(material, group) entry on chip with a compare against the entry index, a select and a sum "
                      "along the 64-wide axis; contiguous loads of material and group, three contiguous stores per "
                      "block; no autotune.",
    "deterministic": True,
}
FISSILE = 5  # UO2, three MOX enrichments, fission chamber


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """mat [N] int32, group [N] int32, table [3, n_mat, G] fp32 = (Sigma_t, Sigma_a, nu-Sigma_f) in 1/cm."""
    s = META["sizes"][size]
    n, n_mat, n_g = s["N"], s["n_mat"], s["G"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    sigma_t = 0.15 + 2.0 * torch.rand(n_mat, n_g, generator=g)
    sigma_a = sigma_t * (0.002 + 0.4 * torch.rand(n_mat, n_g, generator=g))
    nu_sigma_f = sigma_a * (0.3 + 2.2 * torch.rand(n_mat, n_g, generator=g))
    nu_sigma_f[FISSILE:] = 0.0
    table = torch.stack([sigma_t, sigma_a, nu_sigma_f]).contiguous()
    mat_p = torch.tensor([0.22, 0.06, 0.07, 0.08, 0.005, 0.025, 0.54])[:n_mat]
    grp_p = torch.tensor([0.04, 0.12, 0.18, 0.14, 0.12, 0.16, 0.24])[:n_g]
    mat = torch.multinomial(mat_p, n, replacement=True, generator=g).to(torch.int32)
    grp = torch.multinomial(grp_p, n, replacement=True, generator=g).to(torch.int32)
    return mat.to(device), grp.to(device), table.to(device=device, dtype=dt)


def reference(mat: torch.Tensor, grp: torch.Tensor, table: torch.Tensor) -> torch.Tensor:
    return table[:, mat.long(), grp.long()].contiguous()


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": (4 + 4 + 12) * n, "flops": 0}
