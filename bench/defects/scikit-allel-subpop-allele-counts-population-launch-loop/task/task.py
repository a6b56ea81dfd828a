"""Per-population allele counts of biallelic genotype calls (scikit-allel GenotypeArray.count_alleles_subpops).

gt [V, S, 2] int8 holds each sample's two called alleles per variant (0 = ref, 1 = alt, -1 = missing);
pop [S] int32 gives each sample's population (0..K-1). The output ac [K, V, 2] int32 holds, per
population and variant, the number of called ref alleles and alt alleles among that population's
samples (missing alleles are not counted), as scikit-allel's AlleleCountsArray per subpopulation.
"""
import torch

META = {
    "name": "subpop_allele_counts",
    "level": 2,
    "category": "reduction",
    "dtypes": ["int8"],
    "tolerance": {"int8": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"V": 40, "S": 24, "K": 5},
        "ragged": {"V": 53, "S": 37, "K": 7},
        "large": {"V": 131072, "S": 2504, "K": 26},
    },
    "baseline_notes": "One launch over variant blocks: each program streams its rows' haplotype columns in "
                      "128-wide tiles, builds a one-hot [haplotypes, populations] tile from the labels and "
                      "accumulates alt and called counts for every population with two fp16 tl.dots into fp32; "
                      "4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """gt [V, S, 2] int8 (0/1, -1 missing), pop [S] int32 labels, K (number of populations)."""
    s = META["sizes"][size]
    V, S, K = s["V"], s["S"], s["K"]
    g = torch.Generator().manual_seed(seed)
    # most variants are rare: alt allele frequency skewed towards 0
    p = torch.rand(V, 1, 1, generator=g) ** 3
    gt = (torch.rand(V, S, 2, generator=g) < p).to(torch.int8)
    missing = torch.rand(V, S, 1, generator=g) < 0.01
    gt = gt.masked_fill(missing, -1)
    # every population present; samples of a population are spread through the panel
    pop = (torch.randperm(S, generator=g) % K).to(torch.int32)
    return gt.to(device), pop.to(device), K


def reference(gt: torch.Tensor, pop: torch.Tensor, K: int) -> torch.Tensor:
    onehot = torch.nn.functional.one_hot(pop.long(), K).double()          # [S, K]
    ref = (gt == 0).double().sum(2)                                       # [V, S]
    alt = (gt == 1).double().sum(2)
    out = torch.stack([ref @ onehot, alt @ onehot], dim=2)                # [V, K, 2]
    return out.permute(1, 0, 2).contiguous().to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    V, S, K = s["V"], s["S"], s["K"]
    return {"bytes": 2 * V * S + 4 * S + 8 * K * V, "flops": 4 * V * S}
