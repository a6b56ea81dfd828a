"""vg giraffe full-length gapless extension of seeds along haplotype paths.

Giraffe (Siren et al., Science 2021) first tries to explain a short read by a gapless alignment
along a haplotype of the GBWT: a seed (a minimizer hit) places read position 0 at offset `start`
of a haplotype path's sequence, and the whole read is compared with the path base by base.
With giraffe's default scoring (match 1, mismatch 4, full-length bonus 5 at each end) and N scored 0:

    known_j   = read[j] != N and hap[start + j] != N
    mism      = #{j : known_j and read[j] != hap[start + j]}
    score     = #{j : known_j and read[j] == hap[start + j]} * 1 - mism * 4 + 2 * 5

for every seed (one read may carry several seeds, on different haplotypes or loci). The haplotype
sequences that the GBWT walks spell are concatenated into one text `hap` (start already points at
the read's first base; start + L <= len(hap)). Returns (score int32 [S], mismatches int32 [S]); the
host keeps the extensions with few mismatches.
"""
import torch

MATCH, MISMATCH, FULL_LENGTH_BONUS = 1, 4, 5

META = {
    "name": "gapless_seed_extension",
    "level": 2,
    "category": "sequence-alignment",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"R": 6, "L": 150, "S": 24, "T": 4096},
        "ragged": {"R": 7, "L": 101, "S": 37, "T": 3001},
        "large": {"R": 131072, "L": 250, "S": 524288, "T": 16777216},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) each loop over their seeds one at a time: the "
                      "seed's read id and path offset are scalar loads, the read row and the haplotype window "
                      "are two contiguous L-byte loads (BL = next_power_of_2(L), masked), matches and "
                      "mismatches are summed along the row, two scalar stores. No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """reads int8 [R, L] (A,C,G,T,N = 0..4), hap int8 [T], seed_read int32 [S], seed_start int32 [S]."""
    s = META["sizes"][size]
    r, length, n_seeds, t = s["R"], s["L"], s["S"], s["T"]
    g = torch.Generator().manual_seed(seed)
    hap = torch.randint(0, 4, (t,), generator=g, dtype=torch.int8)
    hap[torch.rand(t, generator=g) < 0.001] = 4
    true_pos = torch.randint(0, t - length + 1, (r,), generator=g)
    reads = hap[true_pos[:, None] + torch.arange(length)[None, :]].clone()
    err = torch.rand(r, length, generator=g) < 0.01
    reads[err] = torch.randint(0, 4, (int(err.sum()),), generator=g, dtype=torch.int8)
    reads[torch.rand(r, length, generator=g) < 0.002] = 4
    seed_read = torch.randint(0, r, (n_seeds,), generator=g)
    on_target = torch.rand(n_seeds, generator=g) < 0.7
    other = torch.randint(0, t - length + 1, (n_seeds,), generator=g)
    seed_start = torch.where(on_target, true_pos[seed_read], other)
    return (reads.to(device), hap.to(device), seed_read.to(torch.int32).to(device),
            seed_start.to(torch.int32).to(device))


def reference(reads: torch.Tensor, hap: torch.Tensor, seed_read: torch.Tensor, seed_start: torch.Tensor) -> tuple:
    length = reads.shape[1]
    cols = torch.arange(length, device=reads.device)
    scores, mism = [], []
    for lo in range(0, seed_read.shape[0], 65536):
        r = reads[seed_read[lo:lo + 65536].long()].long()
        h = hap[seed_start[lo:lo + 65536].long()[:, None] + cols[None, :]].long()
        known = (r != 4) & (h != 4)
        mm = (known & (r != h)).sum(1)
        ma = (known & (r == h)).sum(1)
        scores.append(ma * MATCH - mm * MISMATCH + 2 * FULL_LENGTH_BONUS)
        mism.append(mm)
    return torch.cat(scores).to(torch.int32), torch.cat(mism).to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": s["S"] * (2 * s["L"] + 16), "flops": 4 * s["S"] * s["L"]}
