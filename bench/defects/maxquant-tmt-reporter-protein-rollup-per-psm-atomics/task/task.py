"""Protein-group reporter intensities of an isobaric-labelling (TMTpro 16-plex) experiment, MaxQuant style.

MaxQuant's proteinGroups.txt "Reporter intensity k" columns are the sums of the reporter-ion intensities
of the PSMs (evidence rows) assigned to each protein group; PSMs whose reporter precursor intensity
fraction (PIF) is below "Min. reporter PIF" (default 0.75) do not contribute. The PSM table is sorted by
protein group, as after grouping. Returns (intensity fp32 [P, 16], contributing PSM count int32 [P]).
"""
import torch

CHANNELS = 16

META = {
    "name": "tmt_protein_rollup",
    "level": 2,
    "category": "proteomics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 300, "P": 20},
        "ragged": {"N": 1001, "P": 57},
        "large": {"N": 4_194_304, "P": 12_000},
    },
    "baseline_notes": "Blocks of 128 PSMs x 16 channels per program (4 warps); keys are sorted, so each block "
                      "sums its runs of equal protein index with a segmented tl.associative_scan down the rows "
                      "and adds only the run totals (one row per protein present in the block) into the fp32 "
                      "intensities and int32 counts with atomics.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """reporter fp32 [N, 16], protein index int32 [N] (sorted), PIF fp32 [N], min PIF, number of groups."""
    s = META["sizes"][size]
    n, p = s["N"], s["P"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # skewed PSMs per protein group (a few very abundant proteins, a long tail of one-hit wonders)
    weight = 1.0 / torch.arange(1, p + 1, dtype=torch.float64) ** 0.7
    weight = weight[torch.randperm(p, generator=g)]
    protein = torch.multinomial(weight, n, replacement=True, generator=g).sort().values.to(torch.int32)
    abundance = torch.exp(torch.randn(p, generator=g) * 1.2 + 9.5)
    ratios = torch.exp(torch.randn(p, CHANNELS, generator=g) * 0.3)
    psm_scale = torch.exp(torch.randn(n, generator=g) * 1.0)
    noise = torch.exp(torch.randn(n, CHANNELS, generator=g) * 0.15)
    reporter = abundance[protein.long(), None] * ratios[protein.long()] * psm_scale[:, None] * noise
    reporter = torch.where(torch.rand(n, CHANNELS, generator=g) < 0.03, torch.zeros_like(reporter), reporter)
    pif = torch.rand(n, generator=g) ** 0.3
    return reporter.to(device=device, dtype=dt), protein.to(device), pif.to(device=device, dtype=dt), 0.75, p


def reference(reporter: torch.Tensor, protein: torch.Tensor, pif: torch.Tensor, min_pif: float,
              n_groups: int) -> tuple:
    keep = pif >= min_pif
    idx = protein.long()
    out = torch.zeros(n_groups, reporter.shape[1], dtype=torch.float64, device=reporter.device)
    out.index_add_(0, idx[keep], reporter.double()[keep])
    count = torch.bincount(idx[keep], minlength=n_groups)
    return out.to(reporter.dtype), count.to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": s["N"] * (CHANNELS * 4 + 8) + s["P"] * (CHANNELS * 4 + 4), "flops": s["N"] * CHANNELS}
