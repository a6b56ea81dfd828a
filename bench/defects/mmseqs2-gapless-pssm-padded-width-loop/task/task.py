"""MMseqs2 gapless (ungapped) prefilter: best ungapped diagonal score of a query PSSM against a target batch.

MMseqs2's `ungappedprefilter` (the GPU path of MMseqs2-GPU) scores one query against every database
sequence without a k-mer stage: for every diagonal d of the L_q x L_t matrix it runs the ungapped local
recurrence
    H(k, i) = max(H(k-1, i-1), 0) + PSSM[k, t_i]          (i = k + d)
and keeps max(0, max over all cells) as the target's score. PSSM is the query profile in half-bit units
(BLOSUM62 rows of the query residues for a sequence query), int8 [L_q, 32] with 21 used columns
(20 amino acids + X). Targets come as a padded batch, int8 [N, W] (residue codes, X = 20 beyond each
sequence's length), with lengths int32 [N]; W is the longest sequence of the batch. Output: int32 [N].
"""
import torch

META = {
    "name": "mmseqs2_gapless_prefilter",
    "level": 2,
    "category": "bioinformatics",
    "dtypes": ["int8"],
    "tolerance": {"int8": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"Lq": 24, "N": 6, "W": 48},
        "ragged": {"Lq": 29, "N": 7, "W": 61},
        "large": {"Lq": 300, "N": 16384, "W": 2048},
    },
    "baseline_notes": "One program per target sequence; 128 diagonals per lane block, blocks from 1 - L_q "
                      "up to the target's own length; each block walks the query positions k, loading the "
                      "128 target residues of its cells (one coalesced byte load) and their PSSM row "
                      "entries, carrying the running ungapped score per diagonal in registers; one int32 "
                      "store per target. 4 warps, no autotune.",
    "deterministic": True,
}

X = 20  # unknown residue / padding code
ALPHA_PAD = 32
# BLOSUM62 in half bits, order A R N D C Q E G H I L K M F P S T W Y V
BLOSUM62 = [
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
BACKGROUND = [0.07805, 0.05129, 0.04487, 0.05364, 0.01925, 0.04264, 0.06295, 0.07377, 0.02199, 0.05142,
              0.09019, 0.05744, 0.02243, 0.03856, 0.05203, 0.07120, 0.05841, 0.01330, 0.03216, 0.06441]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pssm int8 [Lq, 32], targets int8 [N, W] (padded with X), lengths int32 [N]."""
    s = META["sizes"][size]
    lq, n, w = s["Lq"], s["N"], s["W"]
    g = torch.Generator().manual_seed(seed)
    f = torch.tensor(BACKGROUND, dtype=torch.float64)
    query = torch.multinomial(f, lq, replacement=True, generator=g)
    sub = torch.full((21, ALPHA_PAD), -1, dtype=torch.int16)
    sub[:20, :20] = torch.tensor(BLOSUM62, dtype=torch.int16)
    pssm = sub[query].to(torch.int8)  # [Lq, 32], X column = -1, unused columns -1
    # UniRef-like lengths: log-normal around 280 residues, the longest one sets the padded width
    lengths = torch.exp(torch.randn(n, generator=g, dtype=torch.float64) * 0.65 + torch.log(torch.tensor(280.0)))
    lengths = lengths.round().clamp(min=min(20, w), max=w).to(torch.int32)
    if size == "small" or size == "ragged":
        lengths = torch.randint(max(1, w // 4), w + 1, (n,), generator=g, dtype=torch.int32)
    lengths[int(torch.randint(0, n, (1,), generator=g))] = w
    # background composition through a 4096-entry lookup table (fast for the large batch)
    lut = torch.searchsorted(torch.cumsum(f / f.sum(), 0), (torch.arange(4096) + 0.5) / 4096).clamp(max=19)
    targets = lut.to(torch.int8)[torch.randint(0, 4096, (n, w), generator=g)]
    # a tenth of the batch carries a mutated copy of part of the query (true homologs)
    for t in torch.nonzero(torch.rand(n, generator=g) < 0.1).flatten().tolist():
        seg = min(int(lengths[t]), lq, 60)
        qs = int(torch.randint(0, lq - seg + 1, (1,), generator=g))
        ts = int(torch.randint(0, int(lengths[t]) - seg + 1, (1,), generator=g))
        piece = query[qs:qs + seg].clone()
        mut = torch.rand(seg, generator=g) < 0.35
        piece[mut] = torch.multinomial(f, int(mut.sum()), replacement=True, generator=g) if mut.any() else piece[mut]
        targets[t, ts:ts + seg] = piece.to(torch.int8)
    targets.masked_fill_(torch.arange(w)[None, :] >= lengths[:, None], X)
    return pssm.to(device), targets.to(device), lengths.to(device)


def reference(pssm: torch.Tensor, targets: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    lq = pssm.shape[0]
    n, w = targets.shape
    dev = targets.device
    d = torch.arange(1 - lq, w, device=dev)
    codes = targets.long()
    lens = lengths.long()[:, None]
    run = torch.zeros(n, d.numel(), dtype=torch.int32, device=dev)
    best = torch.zeros(n, d.numel(), dtype=torch.int32, device=dev)
    for k in range(lq):
        i = d + k
        ok = (i >= 0)[None, :] & (i[None, :] < lens)
        e = pssm[k].to(torch.int32)[codes[:, i.clamp(0, w - 1)]]
        run = torch.where(ok, run.clamp(min=0) + e, torch.zeros_like(run))
        best = torch.maximum(best, run)
    return best.max(dim=1).values.to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": s["Lq"] * 32 + s["N"] * (s["W"] + 8), "flops": 3 * s["Lq"] * s["N"] * (s["W"] + s["Lq"])}
