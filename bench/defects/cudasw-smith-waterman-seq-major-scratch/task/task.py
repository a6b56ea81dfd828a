"""Smith-Waterman protein database search, inter-task (CUDASW++ style): one query against many subjects.

Local alignment score with affine gaps (BLOSUM62, gap_open = 11 for the first gap residue, gap_ext = 1
for each further one, the BLAST/CUDASW++ protein defaults) of the query (Q residues) against every
database sequence:

    E[i][j] = max(E[i][j-1] - gap_ext, H[i][j-1] - gap_open)
    F[i][j] = max(F[i-1][j] - gap_ext, H[i-1][j] - gap_open)
    H[i][j] = max(0, H[i-1][j-1] + B62[q_i][d_j], E[i][j], F[i][j]),   score = max_ij H[i][j]

The database is a length-sorted bin of Swiss-Prot-like sequences stored the way CUDASW++ stores it for
inter-task kernels: transposed, db_t[j, s] = residue j of sequence s (codes 0..19 in ARNDCQEGHILKMFPSTWYV
order, 20 = padding past the sequence's length), with lengths [S]. Returns scores int32 [S].
"""
import torch

META = {
    "name": "sw_intertask_db_search",
    "level": 3,
    "category": "bioinformatics",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"seqs": 37, "min_len": 3, "max_len": 12, "query_len": 10},
        "ragged": {"seqs": 77, "min_len": 1, "max_len": 19, "query_len": 13},
        "large": {"seqs": 262144, "min_len": 128, "max_len": 255, "query_len": 300},
    },
    "baseline_notes": "Inter-task: one lane per database sequence (128 per program, 4 warps). The query is "
                      "processed in strips of 4 rows held in registers while the program sweeps the "
                      "subject columns; the strip's last row (H and F per column) is handed to the next "
                      "strip through an interleaved [max_len, S] int32 scratch, so lanes touch consecutive "
                      "words (coalesced), the CUDASW++ layout.",
    "deterministic": True,
}
GAP_OPEN = 11
GAP_EXT = 1
ALPHABET = "ARNDCQEGHILKMFPSTWYV"
# Robinson & Robinson background frequencies (BLAST's), ARNDCQEGHILKMFPSTWYV order
BACKGROUND = [0.07805, 0.05129, 0.04487, 0.05364, 0.01925, 0.04264, 0.06295, 0.07377, 0.02199, 0.05142,
              0.09019, 0.05744, 0.02243, 0.03856, 0.05203, 0.07120, 0.05841, 0.01330, 0.03216, 0.06441]
BLOSUM62 = """
 4 -1 -2 -2  0 -1 -1  0 -2 -1 -1 -1 -1 -2 -1  1  0 -3 -2  0
-1  5  0 -2 -3  1  0 -2  0 -3 -2  2 -1 -3 -2 -1 -1 -3 -2 -3
-2  0  6  1 -3  0  0  0  1 -3 -3  0 -2 -3 -2  1  0 -4 -2 -3
-2 -2  1  6 -3  0  2 -1 -1 -3 -4 -1 -3 -3 -1  0 -1 -4 -3 -3
 0 -3 -3 -3  9 -3 -4 -3 -3 -1 -1 -3 -1 -2 -3 -1 -1 -2 -2 -1
-1  1  0  0 -3  5  2 -2  0 -3 -2  1  0 -3 -1  0 -1 -2 -1 -2
-1  0  0  2 -4  2  5 -2  0 -3 -3  1 -2 -3 -1  0 -1 -3 -2 -2
 0 -2  0 -1 -3 -2 -2  6 -2 -4 -4 -2 -3 -3 -2  0 -2 -2 -3 -3
-2  0  1 -1 -3  0  0 -2  8 -3 -3 -1 -2 -1 -2 -1 -2 -2  2 -3
-1 -3 -3 -3 -1 -3 -3 -4 -3  4  2 -3  1  0 -3 -2 -1 -3 -1  3
-1 -2 -3 -4 -1 -2 -3 -4 -3  2  4 -2  2  0 -3 -2 -1 -2 -1  1
-1  2  0 -1 -3  1  1 -2 -1 -3 -2  5 -1 -3 -1  0 -1 -3 -2 -2
-1 -1 -2 -3 -1  0 -2 -3 -2  1  2 -1  5  0 -2 -1 -1 -1 -1  1
-2 -3 -3 -3 -2 -3 -3 -3 -1  0  0 -3  0  6 -4 -2 -2  1  3 -1
-1 -2 -2 -1 -3 -1 -1 -2 -2 -3 -3 -1 -2 -4  7 -1 -1 -4 -3 -2
 1 -1  1  0 -1  0  0  0 -1 -2 -2  0 -1 -2 -1  4  1 -3 -2 -2
 0 -1  0 -1 -1 -1 -1 -2 -2 -1 -1 -1 -1 -2 -1  1  5 -2 -2  0
-3 -3 -4 -4 -2 -2 -3 -2 -2 -3 -2 -3 -1  1 -4 -3 -2 11  2 -3
-2 -2 -2 -3 -2 -1 -2 -3  2 -1 -1 -2 -1  3 -3 -2 -2  2  7 -1
 0 -3 -3 -3 -1 -2 -2 -3 -3  3  1 -2  1 -1 -2 -2  0 -3 -1  4
"""
PAD = 20


def blosum62() -> torch.Tensor:
    return torch.tensor([int(v) for v in BLOSUM62.split()], dtype=torch.int32).view(20, 20)


def _residues(n: int, g: torch.Generator) -> torch.Tensor:
    cdf = torch.cumsum(torch.tensor(BACKGROUND, dtype=torch.float64), 0)
    cdf = cdf / cdf[-1]
    return torch.searchsorted(cdf, torch.rand(n, generator=g, dtype=torch.float64)).clamp(max=19).to(torch.uint8)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """query uint8 [Q], db_t uint8 [max_len, S], lengths int32 [S] (sorted), BLOSUM62 int32 [400], gaps."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    n, lo, hi, q_len = s["seqs"], s["min_len"], s["max_len"], s["query_len"]
    query = _residues(q_len, g)
    lengths = torch.sort(torch.randint(lo, hi + 1, (n,), generator=g)).values.to(torch.int32)
    db = _residues(n * hi, g).view(n, hi)
    # ~2% of the subjects carry a mutated copy of a stretch of the query (true homologs)
    hom = torch.nonzero(torch.rand(n, generator=g) < 0.02).flatten().tolist()
    for k in hom:
        seg = min(int(lengths[k]), q_len)
        qs = int(torch.randint(0, q_len - seg + 1, (1,), generator=g))
        ds = int(torch.randint(0, int(lengths[k]) - seg + 1, (1,), generator=g))
        piece = query[qs:qs + seg].clone()
        mut = torch.rand(seg, generator=g) < 0.35
        piece[mut] = _residues(int(mut.sum()), g)
        db[k, ds:ds + seg] = piece
    cols = torch.arange(hi)
    db[cols[None, :] >= lengths[:, None].long()] = PAD
    db_t = db.t().contiguous()
    return (query.to(device), db_t.to(device), lengths.to(device), blosum62().flatten().to(device),
            GAP_OPEN, GAP_EXT)


def reference(query, db_t, lengths, blosum, gap_open, gap_ext) -> torch.Tensor:
    """Column sweep over all sequences at once; F from a running max along the query (valid as open >= ext)."""
    dev = db_t.device
    max_len, n = db_t.shape
    q_len = query.numel()
    prof = blosum.view(20, 20).long()[query.long()]            # [Q, 20]
    lens = lengths.long()
    neg = -(1 << 40)
    rows = torch.arange(q_len, device=dev)
    H = torch.zeros(n, q_len, dtype=torch.long, device=dev)
    E = torch.full((n, q_len), neg, dtype=torch.long, device=dev)
    best = torch.zeros(n, dtype=torch.long, device=dev)
    for j in range(max_len):
        live = j < lens
        if not bool(live.any()):
            break
        s = prof[:, db_t[j].long().clamp(max=19)].t()          # [S, Q]
        diag = torch.cat([torch.zeros(n, 1, dtype=torch.long, device=dev), H[:, :-1]], 1)
        E = torch.maximum(E - gap_ext, H - gap_open)
        h0 = torch.clamp(torch.maximum(diag + s, E), min=0)
        run_max = torch.cummax(h0 + rows * gap_ext, dim=1).values
        F = torch.cat([torch.full((n, 1), neg, dtype=torch.long, device=dev), run_max[:, :-1]], 1) \
            - gap_open - (rows - 1) * gap_ext
        H = torch.maximum(h0, F)
        best = torch.where(live, torch.maximum(best, H.max(dim=1).values), best)
    return best.to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    cells = s["seqs"] * (s["min_len"] + s["max_len"]) // 2 * s["query_len"]
    return {"bytes": s["seqs"] * s["max_len"] + 4 * s["seqs"], "flops": 12 * cells}
