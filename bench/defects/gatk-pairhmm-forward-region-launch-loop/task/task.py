"""PairHMM forward likelihoods of reads against candidate haplotypes (GATK HaplotypeCaller, LoglessPairHMM).

Pairs are grouped by active region: region g owns pairs region_ptr[g]:region_ptr[g+1], every read of the
region against every haplotype of the region. For a read of length R and a haplotype of length H the
match / insertion / deletion matrices follow GATK's recurrences (rows = read positions, columns =
haplotype positions, deletion row 0 = C / H so that the read may start anywhere, C = 2^1020):
    M[i][j] = prior(i, j) * (M[i-1][j-1] * mm_i + (I[i-1][j-1] + D[i-1][j-1]) * gm)
    I[i][j] = M[i-1][j] * mi_i + I[i-1][j] * gc
    D[i][j] = M[i][j-1] * md_i + D[i][j-1] * gc
with prior = 1 - e (bases equal or N) else e / 3, e = 10^(-baseQ/10), mi = 10^(-insQ/10),
md = 10^(-delQ/10), mm = 1 - (mi + md), gc = 10^(-GCP/10), gm = 1 - gc, GCP = 10.
Output: log10(sum_j M[R][j] + I[R][j]) - log10(C) per pair, float32.
"""
import math

import torch

GCP = 10.0

META = {
    "name": "pairhmm_forward",
    "level": 2,
    "category": "genomics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"G": 2, "R": 12, "H": 30, "reads": [2, 2], "haps": [2, 2]},
        "ragged": {"G": 3, "R": 29, "H": 61, "reads": [1, 3], "haps": [2, 3]},
        "large": {"G": 256, "R": 151, "H": 480, "reads": [24, 72], "haps": [2, 3]},
    },
    "baseline_notes": "One program per (read, haplotype) pair over all regions, the haplotype as one "
                      "next_power_of_2(H) vector; a loop over read rows: the diagonal predecessors reloaded "
                      "shifted by one column from a per-pair global scratch row (barriers around the stores), "
                      "the deletion recurrence along the row as a tl.associative_scan of affine maps; "
                      "4 warps, no autotune.",
    "deterministic": True,
}

_BQ_BINS = torch.tensor([12, 23, 37])
_BQ_P = torch.tensor([0.03, 0.09, 0.88])


def _mutate(seq: torch.Tensor, g: torch.Generator) -> torch.Tensor:
    """One SNP or one 1-6 bp indel."""
    n = seq.numel()
    p = int(torch.randint(8, n - 8, (1,), generator=g))
    kind = int(torch.randint(0, 3, (1,), generator=g))
    if kind == 0:
        out = seq.clone()
        out[p] = (out[p] + int(torch.randint(1, 4, (1,), generator=g))) % 4
        return out
    k = int(torch.randint(1, 7, (1,), generator=g))
    if kind == 1:
        return torch.cat([seq[:p], torch.randint(0, 4, (k,), generator=g), seq[p:]])
    return torch.cat([seq[:p], seq[p + k:]])


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """bases [NR, R] int8 (0..3, N = 4), quals [NR, 3, R] uint8 (base / insertion / deletion Phred),
    read_lens [NR] int32, haps [NH, H] int8, hap_lens [NH] int32, pair_read [P] int32, pair_hap [P] int32,
    region_ptr [G + 1] int32 (pairs of region g: region_ptr[g]:region_ptr[g+1], read-major)."""
    s = META["sizes"][size]
    G, R, H = s["G"], s["R"], s["H"]
    g = torch.Generator().manual_seed(seed)
    reads, quals, rlens, haps, hlens, pr, ph, ptr = [], [], [], [], [], [], [], [0]
    for _ in range(G):
        ref_len = int(torch.randint(int(H * 0.65), H - 6, (1,), generator=g))
        ref = torch.randint(0, 4, (ref_len,), generator=g)
        n_hap = int(torch.randint(s["haps"][0], s["haps"][1] + 1, (1,), generator=g))
        region_haps = [ref]
        while len(region_haps) < n_hap:
            alt = _mutate(region_haps[int(torch.randint(0, len(region_haps), (1,), generator=g))], g)
            region_haps.append(alt[:H])
        h0 = len(haps)
        for hap in region_haps:
            haps.append(torch.cat([hap, torch.full((H - hap.numel(),), 4)]))
            hlens.append(hap.numel())
        n_read = int(torch.randint(s["reads"][0], s["reads"][1] + 1, (1,), generator=g))
        r0 = len(reads)
        for _ in range(n_read):
            src = region_haps[int(torch.randint(0, n_hap, (1,), generator=g))]
            rl = R if float(torch.rand(1, generator=g)) < 0.7 else int(torch.randint(int(R * 0.66), R + 1, (1,), generator=g))
            start = int(torch.randint(0, src.numel() - rl + 1, (1,), generator=g))
            bq = _BQ_BINS[torch.multinomial(_BQ_P, rl, replacement=True, generator=g)]
            err = torch.rand(rl, generator=g) < 10.0 ** (-bq / 10.0)
            read = src[start:start + rl].clone()
            read[err] = (read[err] + torch.randint(1, 4, (int(err.sum()),), generator=g)) % 4
            read[torch.rand(rl, generator=g) < 0.002] = 4
            iq = torch.randint(40, 46, (rl,), generator=g)
            dq = torch.randint(40, 46, (rl,), generator=g)
            pad = R - rl
            reads.append(torch.cat([read, torch.full((pad,), 4)]))
            quals.append(torch.stack([torch.cat([q, torch.zeros(pad, dtype=q.dtype)]) for q in (bq, iq, dq)]))
            rlens.append(rl)
        for r in range(r0, len(reads)):
            for h in range(h0, len(haps)):
                pr.append(r)
                ph.append(h)
        ptr.append(len(pr))
    i32 = torch.int32
    return (torch.stack(reads).to(torch.int8).to(device), torch.stack(quals).to(torch.uint8).to(device),
            torch.tensor(rlens, dtype=i32).to(device), torch.stack(haps).to(torch.int8).to(device),
            torch.tensor(hlens, dtype=i32).to(device), torch.tensor(pr, dtype=i32).to(device),
            torch.tensor(ph, dtype=i32).to(device), torch.tensor(ptr, dtype=i32).to(device))


def reference(bases, quals, read_lens, haps, hap_lens, pair_read, pair_hap, region_ptr) -> torch.Tensor:
    f64 = torch.float64
    dev = bases.device
    rb = bases[pair_read.long()].long()                       # [P, R]
    q = quals[pair_read.long()].to(f64)                       # [P, 3, R]
    rl = read_lens[pair_read.long()].long()
    hb = haps[pair_hap.long()].long()                         # [P, H]
    hl = hap_lens[pair_hap.long()].long()
    P, R = rb.shape
    H = hb.shape[1]
    gc = 10.0 ** (-GCP / 10.0)
    gm = 1.0 - gc
    init = 2.0 ** 1020 / hl.to(f64)
    col = torch.arange(H, device=dev)
    k = torch.arange(H + 1, device=dev)
    expo = (k[None, :] - 1 - k[:, None]).to(f64)              # shift[k, c] = gc^(c-1-k) for k < c
    shift = torch.where(expo >= 0, gc ** expo.clamp(min=0), torch.zeros((), dtype=f64, device=dev))
    M = torch.zeros(P, H + 1, dtype=f64, device=dev)
    I = torch.zeros_like(M)
    D = init[:, None].expand(P, H + 1).clone()
    for i in range(R):
        e = 10.0 ** (-q[:, 0, i] / 10.0)
        mi = 10.0 ** (-q[:, 1, i] / 10.0)
        md = 10.0 ** (-q[:, 2, i] / 10.0)
        mm = 1.0 - (mi + md)
        same = (hb == rb[:, i:i + 1]) | (hb == 4) | (rb[:, i:i + 1] == 4)
        prior = torch.where(same, (1.0 - e)[:, None], (e / 3.0)[:, None])
        prior = torch.where(col[None, :] < hl[:, None], prior, torch.zeros((), dtype=f64, device=dev))
        Mn = torch.zeros_like(M)
        In = torch.zeros_like(M)
        Mn[:, 1:] = prior * (M[:, :-1] * mm[:, None] + (I[:, :-1] + D[:, :-1]) * gm)
        In[:, 1:] = M[:, 1:] * mi[:, None] + I[:, 1:] * gc
        Dn = md[:, None] * (Mn @ shift)
        live = (i < rl)[:, None]
        M, I, D = torch.where(live, Mn, M), torch.where(live, In, I), torch.where(live, Dn, D)
    inside = torch.arange(1, H + 1, device=dev)[None, :] <= hl[:, None]
    total = torch.where(inside, M[:, 1:] + I[:, 1:], torch.zeros((), dtype=f64, device=dev)).sum(1)
    return (torch.log10(total) - 1020 * math.log10(2.0)).to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    pairs = s["G"] * (s["reads"][0] + s["reads"][1]) / 2 * (s["haps"][0] + s["haps"][1]) / 2
    cells = pairs * s["R"] * s["H"] * 0.85
    reads = s["G"] * (s["reads"][0] + s["reads"][1]) / 2
    return {"bytes": int(reads * 4 * s["R"] + s["G"] * 3 * s["H"] + pairs * 12),
            "flops": int(16 * cells)}
