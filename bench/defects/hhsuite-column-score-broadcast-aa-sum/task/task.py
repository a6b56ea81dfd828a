"""HH-suite (HHblits / HHsearch) profile-profile column score matrix.

For a query HMM with L_q match columns and a chunk of template HMMs whose N_t match columns are stored
back to back, HHblits scores every query column i against every template column j with the
log-odds of the two amino-acid distributions (columnscore 1, the default):

    S[i, j] = log2( sum_a q_i(a) * t_j(a) ) + shift

where q_i(a) = p_i(a) / f(a) is the pseudocount-admixed query column already divided by the
background frequencies f (HH-suite does the division once per query), t_j(a) the template column's
pseudocount-admixed probabilities over the 20 amino acids, and shift = -0.03 bits (par.shift). S feeds the
Viterbi / MAC alignment of every template. Inputs: q [L_q, 20] fp32, t [N_t, 20] fp32, shift (float);
output S [L_q, N_t] fp32.
"""
import torch

META = {
    "name": "hhblits_column_scores",
    "level": 2,
    "category": "bioinformatics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 5e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"Lq": 40, "Nt": 96},
        "ragged": {"Lq": 37, "Nt": 131},
        "large": {"Lq": 256, "Nt": 131072},
    },
    "baseline_notes": "2-D grid of 32 query columns x 32 template columns; each program loads the two "
                      "[32, 20] profile tiles (amino-acid axis padded to 32 under a mask), forms the "
                      "20-term scalar products with one tl.dot (tf32 tensor cores), adds log2 and the "
                      "shift and stores the fp32 tile. 4 warps, no autotune.",
    "deterministic": True,
}

# Robinson & Robinson background amino-acid frequencies (A R N D C Q E G H I L K M F P S T W Y V).
BACKGROUND = [0.07805, 0.05129, 0.04487, 0.05364, 0.01925, 0.04264, 0.06295, 0.07377, 0.02199, 0.05142,
              0.09019, 0.05744, 0.02243, 0.03856, 0.05203, 0.07120, 0.05841, 0.01330, 0.03216, 0.06441]
SHIFT = -0.03


def _profiles(n: int, f: torch.Tensor, g: torch.Generator) -> torch.Tensor:
    """Pseudocount-admixed column distributions: a sharp Dirichlet draw mixed with the background."""
    alpha = 0.35 * 20.0 * f
    gam = torch._standard_gamma(alpha.expand(n, 20).contiguous(), generator=g)
    counts = gam / gam.sum(1, keepdim=True)
    tau = 0.1 + 0.5 * torch.rand(n, 1, generator=g)  # pseudocount admixture per column
    return (1.0 - tau) * counts + tau * f


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q [Lq, 20] query odds p/f, t [Nt, 20] template probabilities, shift (bits)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    f = torch.tensor(BACKGROUND, dtype=torch.float64)
    f = f / f.sum()
    q = _profiles(s["Lq"], f, g) / f
    t = _profiles(s["Nt"], f, g)
    return q.to(device=device, dtype=dt), t.to(device=device, dtype=dt), SHIFT


def reference(q: torch.Tensor, t: torch.Tensor, shift: float) -> torch.Tensor:
    s = torch.log2(q.double() @ t.double().T) + shift
    return s.to(q.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    lq, nt = s["Lq"], s["Nt"]
    return {"bytes": 4 * (20 * lq + 20 * nt + lq * nt), "flops": 2 * 20 * lq * nt}
