"""Ungapped window scoring of seed hits (DIAMOND stage 2, `window_ungapped` / ungapped_window).

Query and subject sequences are packed, DIAMOND style, into one letter array each (amino acids 0..19 in
ARNDCQEGHILKMFPSTWYV order, 23 = X, 31 = the delimiter written between sequences and as padding at both ends).
Each seed hit h = (i, j) says that the query letter at packed position i and the subject letter at j start a
matching spaced seed. Stage 2 scores the hit by the best ungapped segment in a 64-letter window on its
diagonal centred on the seed:

    x_k = BLOSUM62[query[i - 32 + k], subject[j - 32 + k]],  k = 0 .. 63
    st = 0; best = 0;  for k: st = max(st + x_k, 0); best = max(best, st)

(Kadane's maximum-subarray recursion, the delimiter scoring -64 so that a window never extends across two
sequences). Hits whose best reaches the ungapped cutoff go on to gapped extension. Returns best int32 [H].
"""
import torch

META = {
    "name": "ungapped_window_score",
    "level": 2,
    "category": "sequence-search",
    "dtypes": ["uint8"],
    "tolerance": {"uint8": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"n_query": 4, "n_subject": 12, "hits": 200, "window": 64},
        "ragged": {"n_query": 5, "n_subject": 17, "hits": 333, "window": 64},
        "large": {"n_query": 4096, "n_subject": 100000, "hits": 4194304, "window": 64},
    },
    "baseline_notes": "Each program scores a block of 64 hits: the hit pairs as vectors, the two [64, 64] letter "
                      "windows (each row contiguous), the BLOSUM62 gather, then Kadane as a prefix sum minus its "
                      "running minimum (tl.cumsum + tl.associative_scan(min)) and a row max; 4 warps, no autotune.",
    "deterministic": True,
}
DELIMITER = 31
X_LETTER = 23
AMINO = "ARNDCQEGHILKMFPSTWYV"
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
# Robinson & Robinson (1991) amino-acid background frequencies, ARNDCQEGHILKMFPSTWYV.
BACKGROUND = [0.07805, 0.05129, 0.04487, 0.05364, 0.01925, 0.04264, 0.06295, 0.07377, 0.02199, 0.05142,
              0.09019, 0.05744, 0.02243, 0.03856, 0.05203, 0.07120, 0.05841, 0.01330, 0.03216, 0.06441]


def score_matrix() -> torch.Tensor:
    """DIAMOND-style 32 x 32 int8 matrix: BLOSUM62 on 0..19, -1 against X and the unused codes, -64 for the delimiter."""
    m = torch.full((32, 32), -1, dtype=torch.int8)
    m[:20, :20] = torch.tensor(BLOSUM62, dtype=torch.int8)
    m[DELIMITER, :] = -64
    m[:, DELIMITER] = -64
    return m


def _pack(n_seq: int, pad: int, g: torch.Generator) -> tuple:
    """Packed letters uint8 (delimiter between sequences, `pad` delimiters at both ends) and the letter positions."""
    lengths = torch.exp(torch.randn(n_seq, generator=g) * 0.55 + 5.65).round().clamp(30, 3000).long()
    total = int(lengths.sum()) + n_seq - 1 + 2 * pad
    cdf = torch.tensor(BACKGROUND, dtype=torch.float64).cumsum(0)
    letters = torch.searchsorted(cdf / cdf[-1], torch.rand(total, generator=g, dtype=torch.float64)).clamp(max=19)
    x_mask = torch.rand(total, generator=g) < 0.002
    letters = torch.where(x_mask, torch.full_like(letters, X_LETTER), letters)
    starts = pad + torch.cumsum(lengths + 1, 0) - (lengths + 1)
    is_delim = torch.ones(total, dtype=torch.bool)
    seq_of = torch.repeat_interleave(torch.arange(n_seq), lengths)
    pos = starts[seq_of] + (torch.arange(int(lengths.sum())) - (torch.cumsum(lengths, 0) - lengths)[seq_of])
    is_delim[pos] = False
    letters[is_delim] = DELIMITER
    return letters.to(torch.uint8), pos


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """query letters uint8 [Lq], subject letters uint8 [Ls], hits int32 [H, 2] (query pos, subject pos),
    score matrix int8 [32, 32]."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    half = s["window"] // 2
    query, q_pos = _pack(s["n_query"], half, g)
    subject, s_pos = _pack(s["n_subject"], half, g)
    h = s["hits"]
    qi = q_pos[torch.randint(0, q_pos.numel(), (h,), generator=g)]
    sj = s_pos[torch.randint(0, s_pos.numel(), (h,), generator=g)]
    # a seed is a shared (spaced) k-mer: make the seed letters identical on half the hits' first 4 positions
    seeded = torch.rand(h, generator=g) < 0.5
    for k in range(4):
        ok = seeded & (subject[sj + k] != DELIMITER) & (query[qi + k] != DELIMITER)
        subject[sj[ok] + k] = query[qi[ok] + k]
    hits = torch.stack([qi, sj], 1).to(torch.int32)
    return query.to(device), subject.to(device), hits.to(device), score_matrix().to(device)


def reference(query: torch.Tensor, subject: torch.Tensor, hits: torch.Tensor, matrix: torch.Tensor) -> torch.Tensor:
    window = META["sizes"]["small"]["window"]
    k = torch.arange(window, device=hits.device) - window // 2
    a = query.long()[hits[:, 0].long()[:, None] + k[None, :]]
    b = subject.long()[hits[:, 1].long()[:, None] + k[None, :]]
    x = matrix.long()[a, b]
    st = torch.zeros(hits.shape[0], dtype=torch.int64, device=hits.device)
    best = torch.zeros_like(st)
    for c in range(window):
        st = torch.clamp(st + x[:, c], min=0)
        best = torch.maximum(best, st)
    return best.to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": s["hits"] * (8 + 2 * s["window"] + 4), "flops": 4 * s["hits"] * s["window"]}
