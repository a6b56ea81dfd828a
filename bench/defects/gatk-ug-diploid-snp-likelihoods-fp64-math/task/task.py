"""Diploid SNP genotype likelihoods from a pileup's bases and base qualities (GATK UnifiedGenotyper
DiploidSNPGenotypeLikelihoods, the same model as samtools/bcftools' simple GL).

For each site the pileup holds up to D reads: base [S, D] int8 (0..3 = A, C, G, T; 4 = N), qual [S, D]
int8 Phred base quality, depth [S] int32 (the first depth[s] entries are real). A read with base b and
error e = 10^(-q/10) supports allele a with P(b | a) = 1 - e if b == a else e / 3; for the diploid genotype
{a1, a2}, P(b | G) = (P(b | a1) + P(b | a2)) / 2. Reads with an N base or q < 13 are skipped. Output
gl [S, 10] float32: log10 P(pileup | G) for the 10 genotypes in VCF order (AA, AC, CC, AG, CG, GG, AT,
CT, GT, TT).
"""
import math

import torch

META = {
    "name": "diploid_snp_genotype_likelihoods",
    "level": 2,
    "category": "reduction",
    "dtypes": ["int8"],
    "tolerance": {"int8": {"atol": 2e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"S": 24, "D": 16},
        "ragged": {"S": 37, "D": 23},
        "large": {"S": 1048576, "D": 64},
    },
    "baseline_notes": "One program per 16 sites holding the [16, next_pow2(D)] pileup tile: error probability "
                      "from the quality with one exp, then for each of the 10 genotypes the per-read mixture "
                      "probability, log, masked row sum and a store; fp32 math, 4 warps, no autotune.",
    "deterministic": True,
}

MIN_BASE_QUAL = 13


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """base [S, D] int8, qual [S, D] int8, depth [S] int32."""
    s = META["sizes"][size]
    S, D = s["S"], s["D"]
    g = torch.Generator().manual_seed(seed)
    depth = torch.randint(D // 3, D + 1, (S,), generator=g, dtype=torch.int32)
    depth[0] = D
    # a het site every so often, otherwise hom-ref, plus sequencing errors
    ref = torch.randint(0, 4, (S, 1), generator=g)
    alt = (ref + torch.randint(1, 4, (S, 1), generator=g)) % 4
    het = torch.rand(S, 1, generator=g) < 0.3
    carries_alt = het & (torch.rand(S, D, generator=g) < 0.5)
    base = torch.where(carries_alt, alt, ref)
    errors = torch.rand(S, D, generator=g) < 0.02
    base = torch.where(errors, torch.randint(0, 5, (S, D), generator=g), base)
    qual = torch.randint(2, 42, (S, D), generator=g)
    pad = torch.arange(D)[None, :] >= depth[:, None].long()
    base = base.masked_fill(pad, 4)
    qual = qual.masked_fill(pad, 0)
    return base.to(torch.int8).to(device), qual.to(torch.int8).to(device), depth.to(device)


def reference(base: torch.Tensor, qual: torch.Tensor, depth: torch.Tensor) -> torch.Tensor:
    S, D = base.shape
    b = base.long()
    q = qual.double()
    real = torch.arange(D, device=base.device)[None, :] < depth[:, None].long()
    use = real & (b < 4) & (qual >= MIN_BASE_QUAL)
    e = torch.pow(10.0, -q / 10.0)
    cols = []
    for a2 in range(4):
        for a1 in range(a2 + 1):
            p1 = torch.where(b == a1, 1.0 - e, e / 3.0)
            p2 = torch.where(b == a2, 1.0 - e, e / 3.0)
            lik = torch.log10(0.5 * (p1 + p2))
            cols.append(torch.where(use, lik, torch.zeros_like(lik)).sum(1))
    return torch.stack(cols, dim=1).to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    S, D = s["S"], s["D"]
    return {"bytes": 2 * S * D + 4 * S + 40 * S, "flops": 60 * S * D}
