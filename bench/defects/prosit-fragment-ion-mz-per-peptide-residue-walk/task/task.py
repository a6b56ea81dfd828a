"""Theoretical fragment-ion m/z of a peptide library in Prosit's 174-slot layout (Prosit annotate/match).

Each peptide is a row of MAX_SEQUENCE = 30 integer residue codes (Prosit's ALPHABET: A=1 ... Y=20,
M(ox)=21, 0 = padding; C is carbamidomethylated) with a precursor charge. With m_k the residue masses,
forward = cumsum(m) and backward = cumsum(reversed(m)) over the L residues, the fragment of ordinal
n = 1 .. L-1 and charge z = 1, 2, 3 has
    b_n^z = (forward[n-1] + z * PROTON) / z,     y_n^z = (backward[n-1] + H2O + z * PROTON) / z.
The output row has MAX_ION = 29 ordinals x (y1+, y2+, y3+, b1+, b2+, b3+), i.e. fp32 [N, 174] in
Prosit's order; ordinals n >= L and fragment charges above the precursor charge are -1 (Prosit's
"impossible ion" value).
"""
import torch

PROTON = 1.007276467
H2O = 2 * 1.007825035 + 15.99491463
MAX_SEQUENCE = 30
MAX_ION = MAX_SEQUENCE - 1

# Prosit ALPHABET order; index 0 is padding.
_RESIDUES = "ACDEFGHIKLMNPQRSTVWY"
_MONO = {"G": 57.021464, "R": 156.101111, "V": 99.068414, "P": 97.052764, "S": 87.032028,
         "L": 113.084064, "M": 131.040485, "Q": 128.058578, "N": 114.042927, "Y": 163.063329,
         "E": 129.042593, "C": 103.009185 + 57.0214637236, "F": 147.068414, "I": 113.084064,
         "A": 71.037114, "T": 101.047679, "W": 186.079313, "H": 137.058912, "D": 115.026943,
         "K": 128.094963}
# Approximate human proteome composition (percent), same order as _RESIDUES.
_FREQ = [7.0, 2.3, 4.7, 7.1, 3.7, 6.6, 2.6, 4.3, 5.7, 10.0, 2.1, 3.6, 6.3, 4.8, 5.6, 8.3, 5.4, 6.0, 1.2, 2.7]

META = {
    "name": "prosit_fragment_mz",
    "level": 2,
    "category": "proteomics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 5e-3, "rtol": 2e-6}},
    "sizes": {
        "small": {"N": 16},
        "ragged": {"N": 37},
        "large": {"N": 2_000_000},
    },
    "baseline_notes": "Blocks of 32 peptides x 32 residue slots per program (4 warps): the residue codes are "
                      "loaded as one tile, masses looked up in the 32-entry table, forward masses by tl.cumsum "
                      "along the row, backward masses by tl.cumsum of the row read in reverse order; the six "
                      "ion columns are stored with stride 6 into the [N, 174] output, -1 where impossible.",
    "deterministic": True,
}


def aa_mass_table() -> torch.Tensor:
    """fp32 [32]: residue mass by Prosit code (0 = padding, 21 = M(ox), 22..31 unused)."""
    t = torch.zeros(32, dtype=torch.float64)
    for i, aa in enumerate(_RESIDUES):
        t[i + 1] = _MONO[aa]
    t[21] = _MONO["M"] + 15.99491
    return t.float()


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Residue codes int32 [N, 30], precursor charge int32 [N], residue mass table fp32 [32]."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    freq = torch.tensor(_FREQ, dtype=torch.float64)
    codes = torch.multinomial(freq / freq.sum(), n * MAX_SEQUENCE, replacement=True, generator=g)
    codes = (codes + 1).view(n, MAX_SEQUENCE).to(torch.int32)
    ox = (codes == 11) & (torch.rand(n, MAX_SEQUENCE, generator=g) < 0.3)
    codes = torch.where(ox, torch.full_like(codes, 21), codes)
    # tryptic lengths 7..30, skewed to short peptides; C-terminal K or R
    expo = -6.0 * torch.log1p(-torch.rand(n, generator=g))
    length = (7 + expo).long().clamp(7, MAX_SEQUENCE)
    rows = torch.arange(n)
    codes[rows, length - 1] = torch.where(torch.rand(n, generator=g) < 0.5, 9, 15).to(torch.int32)
    pos = torch.arange(MAX_SEQUENCE)
    codes = torch.where(pos[None, :] < length[:, None], codes, torch.zeros_like(codes))
    charge = torch.multinomial(torch.tensor([0.02, 0.55, 0.32, 0.08, 0.02, 0.01]), n, replacement=True,
                               generator=g).to(torch.int32) + 1
    return codes.to(device), charge.to(device), aa_mass_table().to(device)


def reference(seq: torch.Tensor, charge: torch.Tensor, aa_mass: torch.Tensor) -> torch.Tensor:
    codes = seq.long()
    n = codes.shape[0]
    m = aa_mass.double()[codes]                                   # [N, 30], 0 on padding
    length = (codes != 0).sum(1)
    pos = torch.arange(MAX_SEQUENCE, device=seq.device)
    back_idx = (length[:, None] - 1 - pos[None, :]).clamp(min=0)
    m_rev = torch.where(pos[None, :] < length[:, None], m.gather(1, back_idx), torch.zeros_like(m))
    forward = m.cumsum(1)[:, :MAX_ION]
    backward = m_rev.cumsum(1)[:, :MAX_ION]
    ion_ok = pos[None, :MAX_ION] < (length[:, None] - 1)
    out = torch.empty(n, MAX_ION, 6, dtype=torch.float64, device=seq.device)
    for z in (1, 2, 3):
        ok = ion_ok & (charge[:, None] >= z)
        out[:, :, z - 1] = torch.where(ok, (backward + H2O + z * PROTON) / z, -1.0)
        out[:, :, 2 + z] = torch.where(ok, (forward + z * PROTON) / z, -1.0)
    return out.reshape(n, MAX_ION * 6).float()


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": n * (MAX_SEQUENCE * 4 + 4 + MAX_ION * 6 * 4), "flops": n * MAX_ION * 14}
