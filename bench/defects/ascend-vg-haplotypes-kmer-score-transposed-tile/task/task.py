"""vg haplotypes candidate scoring: k-mer presence of candidate haplotypes against read k-mer counts.

`vg haplotypes` (Siren et al., Nature Methods 2024, personalized pangenome references) splits the
graph into subchunks; each subchunk has a set of candidate haplotypes (distinct GBWT paths) and a set
of k-mers specific to the subchunk, with a presence matrix has[s, h, k] (1 when candidate h contains
k-mer k). The sample's reads give a count per k-mer; with the expected k-mer coverage `cov` of a
homozygous k-mer, a k-mer is
    absent   count <  0.25 * cov
    present  0.75 * cov <= count < 2 * cov      (homozygous; heterozygous counts in between score 0,
                                                 frequent ones at >= 2 * cov are ignored)
and a candidate scores one point for every present k-mer it contains and for every absent k-mer it
lacks:
    score[s, h] = sum_k present[s, k] * has[s, h, k] + absent[s, k] * (1 - has[s, h, k])
The greedy diploid selection over these scores follows on the host.
Returns score int32 [S, H].
"""
import torch

META = {
    "name": "haplotype_kmer_scoring",
    "level": 2,
    "category": "genomics",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"S": 3, "H": 8, "K": 200, "cov": 20.0},
        "ragged": {"S": 5, "H": 5, "K": 333, "cov": 20.0},
        "large": {"S": 8192, "H": 64, "K": 512, "cov": 30.0},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over subchunks; per subchunk a loop over "
                      "k-mer blocks of 128 loads the counts, classifies them in fp32 and loads the presence "
                      "tile as [candidates, k-mers] (64 rows of 128 contiguous bytes), scoring along the "
                      "contiguous k-mer axis into a [64] int32 accumulator; one store per subchunk. No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """has int8 [S, H, K] (0/1), counts int32 [S, K], cov (float, expected homozygous k-mer count)."""
    s = META["sizes"][size]
    n_sub, n_hap, n_kmer, cov = s["S"], s["H"], s["K"], s["cov"]
    g = torch.Generator().manual_seed(seed)
    has = (torch.rand(n_sub, n_hap, n_kmer, generator=g) < 0.5).to(torch.int8)
    idx = torch.arange(n_sub)
    h1 = torch.randint(0, n_hap, (n_sub,), generator=g)
    h2 = torch.randint(0, n_hap, (n_sub,), generator=g)
    dose = has[idx, h1].float() + has[idx, h2].float()  # copies of each k-mer in the sample
    lam = 0.5 * cov * dose + 0.3
    lam[torch.rand(n_sub, n_kmer, generator=g) < 0.02] = 3.0 * cov  # repeats: frequent k-mers
    counts = torch.poisson(lam, generator=g).to(torch.int32)
    return has.to(device), counts.to(device), float(cov)


def reference(has: torch.Tensor, counts: torch.Tensor, cov: float) -> torch.Tensor:
    c = counts.double()
    absent = (c < 0.25 * cov).to(torch.int32)
    present = ((c >= 0.75 * cov) & (c < 2.0 * cov)).to(torch.int32)
    out = []
    for lo in range(0, has.shape[0], 512):
        t = has[lo:lo + 512].to(torch.int32)
        p, a = present[lo:lo + 512, None, :], absent[lo:lo + 512, None, :]
        out.append((p * t + a * (1 - t)).sum(-1))
    return torch.cat(out).to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": s["S"] * (s["H"] * s["K"] + 4 * s["K"] + 4 * s["H"]), "flops": 3 * s["S"] * s["H"] * s["K"]}
