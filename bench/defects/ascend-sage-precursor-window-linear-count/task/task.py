"""Sage precursor mass-window search: the slice of the mass-sorted peptide table each spectrum scores.

Sage's IndexedDatabase keeps its peptides sorted by monoisotopic mass; for each MS2 spectrum
(IndexedQuery) it turns the precursor neutral mass M and the precursor tolerance (ppm, e.g. [-50, 50])
into bounds lo = M * (1 + lo_ppm / 1e6), hi = M * (1 + hi_ppm / 1e6) and binary-searches the table for
the candidate slice [first, last): first = #{mass < lo}, last = #{mass <= hi}. Returns the two int32
index vectors [Q], the candidate ranges that fragment matching then walks.
"""
import torch

META = {
    "name": "precursor_window_bounds",
    "level": 2,
    "category": "search",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"Q": 37, "N": 1000, "lo_ppm": -50.0, "hi_ppm": 50.0},
        "ragged": {"Q": 101, "N": 3001, "lo_ppm": -20.0, "hi_ppm": 20.0},
        "large": {"Q": 60000, "N": 3000000, "lo_ppm": -50.0, "hi_ppm": 50.0},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over blocks of 16 spectra; per block a "
                      "branchless binary search (binary lifting over powers of two, ceil(log2(N + 1)) steps) "
                      "for both bounds, each step one gathered peptide mass per spectrum; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """peptide_mass [N] sorted ascending, precursor_mass [Q], lo_factor, hi_factor (1 + ppm / 1e6)."""
    s = META["sizes"][size]
    Q, N = s["Q"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # tryptic peptides 7-50 residues: masses ~ 700-5500 Da, mode near 1500 Da (log-normal)
    pep = torch.exp(torch.randn(N, generator=g) * 0.38 + 7.35).clamp(600.0, 6000.0)
    pep = torch.round(pep * 1e4) / 1e4  # isobaric peptides share a mass
    pep = torch.sort(pep.to(dt)).values
    # 70% of the spectra come from a peptide in the table (with a few ppm of error), the rest do not
    pick = torch.randint(0, N, (Q,), generator=g)
    err = 1.0 + torch.randn(Q, generator=g) * 5e-6
    prec = torch.where(torch.rand(Q, generator=g) < 0.7, pep[pick].double() * err,
                       torch.exp(torch.randn(Q, generator=g) * 0.38 + 7.35).double())
    return (pep.to(device), prec.to(dt).to(device),
            1.0 + s["lo_ppm"] * 1e-6, 1.0 + s["hi_ppm"] * 1e-6)


def reference(peptide_mass: torch.Tensor, precursor_mass: torch.Tensor, lo_factor: float,
              hi_factor: float) -> tuple:
    lo = precursor_mass.float() * lo_factor
    hi = precursor_mass.float() * hi_factor
    first = torch.searchsorted(peptide_mass.float(), lo, right=False)
    last = torch.searchsorted(peptide_mass.float(), hi, right=True)
    return first.to(torch.int32), last.to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    steps = max(1, s["N"]).bit_length()
    return {"bytes": 4 * s["Q"] * (1 + 2 + 2 * steps), "flops": 4 * s["Q"] * steps}
