"""Local amino-acid composition-bias correction and bias-corrected query profile (MMseqs2
SubstitutionMatrix::calcLocalAaBiasCorrection, as run for every query before prefiltering / alignment).

Queries are packed back to back in MMseqs2's 21-letter encoding (ACDEFGHIKLMNPQRSTVWY, X = 20), sequence q
occupying residues[offsets[q]:offsets[q+1]]. For residue i of a sequence of length L (window of 40):

    lo = max(0, i - 20),  hi = min(L, i + 20)
    bias_i = scale * ( -(sum_{j in [lo, hi)} M[s_i][s_j] - M[s_i][s_i]) / (hi - lo)  +  sum_a pBack[a] * M[s_i][a] )

i.e. minus the average score of s_i against its neighbourhood plus its expected score against the background;
residues in low-complexity / biased stretches get a negative correction. The profile then scores every letter
a at position i as M[a][s_i] + bias_i. Returns (bias fp32 [N], profile fp32 [N, 21]).
"""
import torch

META = {
    "name": "composition_bias_profile",
    "level": 2,
    "category": "sequence-search",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-5}},
    "sizes": {
        "small": {"n_seq": 5, "median_len": 40, "min_len": 12, "max_len": 90},
        "ragged": {"n_seq": 7, "median_len": 60, "min_len": 5, "max_len": 133},
        "large": {"n_seq": 4096, "median_len": 300, "min_len": 30, "max_len": 5000},
    },
    "baseline_notes": "One launch over all queries: program q reads its bounds from offsets and walks its sequence "
                      "in blocks of 256 residues; per block a 40-step loop over the window offsets accumulates the "
                      "neighbour scores (int32), a [256, 32] gather of the matrix column gives the profile row and the "
                      "background term; bias and profile stored once. 4 warps, no autotune.",
    "deterministic": True,
}
HALF_WINDOW = 20
ALPHABET = 21
# BLOSUM62 in ARNDCQEGHILKMFPSTWYV order (half-bit units, as MMseqs2's blosum62.out).
_ORDER = "ARNDCQEGHILKMFPSTWYV"
_BLOSUM62 = [
    [4, -1, -2, -2, 0, -1, -1, 0, -2, -1, -1, -1, -1, -2, -1, 1, 0, -3, -2, 0],
    [-1, 5, 0, -2, -3, 1, 0, -2, 0, -3, -2, 2, -1, -3, -2, -1, -1, -3, -2, -3],
    [-2, 0, 6, 1, -3, 0, 0, 0, 1, -3, -3, 0, -2, -3, -2, 1, 0, -4, -2, -3],
    [-2, -2, 1, 6, -3, 0, 2, -1, -1, -3, -4, -1, -3, -3, -1, 0, -1, -4, -3, -3],
    [0, -3, -3, -3, 9, -3, -4, -3, -3, -1, -1, -3, -1, -2, -3, -1, -1, -2, -2, -1],
    [-1, 1, 0, 0, -3, 5, 2, -2, 0, -3, -2, 1, 0, -3, -1, 0, -1, -2, -1, -2],
    [-1, 0, 0, 2, -4, 2, 5, -2, 0, -3, -3, 1, -2, -3, -1, 0, -1, -3, -2, -2],
    [0, -2, 0, -1, -3, -2, -2, 6, -2, -4, -4, -2, -3, -3, -2, 0, -2, -2, -3, -3],
    [-2, 0, 1, -1, -3, 0, 0, -2, 8, -3, -3, -1, -2, -1, -2, -1, -2, -2, 2, -3],
    [-1, -3, -3, -3, -1, -3, -3, -4, -3, 4, 2, -3, 1, 0, -3, -2, -1, -3, -1, 3],
    [-1, -2, -3, -4, -1, -2, -3, -4, -3, 2, 4, -2, 2, 0, -3, -2, -1, -2, -1, 1],
    [-1, 2, 0, -1, -3, 1, 1, -2, -1, -3, -2, 5, -1, -3, -1, 0, -1, -3, -2, -2],
    [-1, -1, -2, -3, -1, 0, -2, -3, -2, 1, 2, -1, 5, 0, -2, -1, -1, -1, -1, 1],
    [-2, -3, -3, -3, -2, -3, -3, -3, -1, 0, 0, -3, 0, 6, -4, -2, -2, 1, 3, -1],
    [-1, -2, -2, -1, -3, -1, -1, -2, -2, -3, -3, -1, -2, -4, 7, -1, -1, -4, -3, -2],
    [1, -1, 1, 0, -1, 0, 0, 0, -1, -2, -2, 0, -1, -2, -1, 4, 1, -3, -2, -2],
    [0, -1, 0, -1, -1, -1, -1, -2, -2, -1, -1, -1, -1, -2, -1, 1, 5, -2, -2, 0],
    [-3, -3, -4, -4, -2, -2, -3, -2, -2, -3, -2, -3, -1, 1, -4, -3, -2, 11, 2, -3],
    [-2, -2, -2, -3, -2, -1, -2, -3, 2, -1, -1, -2, -1, 3, -3, -2, -2, 2, 7, -1],
    [0, -3, -3, -3, -1, -2, -2, -3, -3, 3, 1, -2, 1, -1, -2, -2, 0, -3, -1, 4],
]
# Robinson & Robinson (1991) background frequencies, ARNDCQEGHILKMFPSTWYV.
_BACKGROUND = [0.07805, 0.05129, 0.04487, 0.05364, 0.01925, 0.04264, 0.06295, 0.07377, 0.02199, 0.05142,
               0.09019, 0.05744, 0.02243, 0.03856, 0.05203, 0.07120, 0.05841, 0.01330, 0.03216, 0.06441]
MMSEQS_ORDER = "ACDEFGHIKLMNPQRSTVWY"


def substitution_matrix() -> tuple:
    """BLOSUM62 as int16 [21, 21] in MMseqs2's letter order (X scores -1), and pBack fp32 [21] (X: 0)."""
    perm = torch.tensor([_ORDER.index(c) for c in MMSEQS_ORDER])
    m = torch.full((ALPHABET, ALPHABET), -1, dtype=torch.int16)
    m[:20, :20] = torch.tensor(_BLOSUM62, dtype=torch.int16)[perm][:, perm]
    p = torch.zeros(ALPHABET, dtype=torch.float32)
    bg = torch.tensor(_BACKGROUND, dtype=torch.float64)[perm]
    p[:20] = (bg / bg.sum()).float()
    return m, p


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """residues uint8 [N] (queries packed), offsets int32 [n_seq + 1], matrix int16 [21, 21], pBack fp32 [21], scale."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    n_seq = s["n_seq"]
    # UniProt-like log-normal lengths (median ~300 for real queries)
    lengths = (s["median_len"] * torch.exp(torch.randn(n_seq, generator=g) * 0.6)).round().long()
    lengths = lengths.clamp(s["min_len"], s["max_len"])
    offsets = torch.zeros(n_seq + 1, dtype=torch.int64)
    offsets[1:] = torch.cumsum(lengths, 0)
    total = int(offsets[-1])
    matrix, p_back = substitution_matrix()
    cdf = p_back[:20].double().cumsum(0)
    residues = torch.searchsorted(cdf / cdf[-1], torch.rand(total, generator=g, dtype=torch.float64)).clamp(max=19)
    residues = torch.where(torch.rand(total, generator=g) < 0.003, torch.full_like(residues, 20), residues)
    # low-complexity stretches (poly-Q / poly-S / poly-E runs), where the correction matters
    for _ in range(max(1, total // 400)):
        start = int(torch.randint(0, total, (1,), generator=g))
        run_len = int(torch.randint(6, 30, (1,), generator=g))
        residues[start:start + run_len] = int(torch.tensor([13, 15, 3])[torch.randint(0, 3, (1,), generator=g)])
    dt = getattr(torch, dtype or META["dtypes"][0])
    return (residues.to(device=device, dtype=torch.uint8), offsets.to(device=device, dtype=torch.int32),
            matrix.to(device), p_back.to(device=device, dtype=dt), 1.0)


def reference(residues: torch.Tensor, offsets: torch.Tensor, matrix: torch.Tensor, p_back: torch.Tensor,
              scale: float) -> tuple:
    dev = residues.device
    s = residues.long()
    n = s.numel()
    m = matrix.double()
    seq_of = torch.repeat_interleave(torch.arange(offsets.numel() - 1, device=dev),
                                     (offsets[1:] - offsets[:-1]).long())
    first = offsets[:-1].long()[seq_of]
    last = offsets[1:].long()[seq_of]
    pos = torch.arange(n, device=dev)
    lo = torch.maximum(pos - HALF_WINDOW, first)
    hi = torch.minimum(pos + HALF_WINDOW, last)
    neighbour = torch.zeros(n, dtype=torch.float64, device=dev)
    for d in range(-HALF_WINDOW, HALF_WINDOW):
        j = pos + d
        inside = (j >= lo) & (j < hi)
        neighbour += torch.where(inside, m[s, s[j.clamp(0, n - 1)]], torch.zeros((), dtype=torch.float64, device=dev))
    neighbour -= m[s, s]
    background = (m[s, :] * p_back.double()[None, :]).sum(1)
    bias = scale * (-neighbour / (hi - lo).double() + background)
    profile = m[:, s].T + bias[:, None]
    return bias.to(p_back.dtype), profile.to(p_back.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = int(s["n_seq"] * s["median_len"] * 1.2)
    return {"bytes": n * (1 + 4 + 4 * ALPHABET), "flops": n * (4 * HALF_WINDOW + 2 * ALPHABET)}
