"""BLAST ungapped X-drop extension of word hits (NCBI BLAST+ blastp, aa_ungapped.c: s_BlastAaExtendLeft
then s_BlastAaExtendRight, as in s_BlastAaExtendTwoHit).

Each hit (subject s, query offset q_off, subject offset s_off) marks the last residue of a 3-letter
word match. The left extension walks backwards from (q_off, s_off) inclusive over
n = min(q_off, s_off) + 1 positions, adding BLOSUM62 scores; it remembers the best running score
(start 0) and stops once best - score >= dropoff. The right extension walks forwards from
(q_off + 1, s_off + 1) over n = min(Q - q_off - 1, len_s - s_off - 1) positions, starting from the left
extension's best score; it stops once score <= 0 or best - score >= dropoff. dropoff = 16 is the raw
form of blastp's 7-bit ungapped X-drop (7 ln2 / lambda, lambda = 0.3176).
Returns (score, q_start, length), int32 [H] each: the ungapped HSP's score, first query residue and length.
"""
import math

import torch

META = {
    "name": "blast_ungapped_extension",
    "level": 2,
    "category": "bioinformatics",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"query_len": 24, "subjects": 6, "min_len": 10, "max_len": 40, "hits": 40},
        "ragged": {"query_len": 37, "subjects": 9, "min_len": 5, "max_len": 61, "hits": 77},
        "large": {"query_len": 512, "subjects": 65536, "min_len": 50, "max_len": 1000, "hits": 2_097_152},
    },
    "baseline_notes": "One lane per hit, 128 hits per program (4 warps); each extension is a loop over "
                      "residue steps in which finished lanes are masked off, and the loop exits as soon as "
                      "no lane of the program is still extending.",
    "deterministic": True,
}
DROPOFF = 16
HOMOLOG_FRACTION = 0.01
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


def blosum62() -> torch.Tensor:
    return torch.tensor([int(v) for v in BLOSUM62.split()], dtype=torch.int32).view(20, 20)


def _residues(n: int, g: torch.Generator) -> torch.Tensor:
    cdf = torch.cumsum(torch.tensor(BACKGROUND, dtype=torch.float64), 0)
    cdf = cdf / cdf[-1]
    return torch.searchsorted(cdf, torch.rand(n, generator=g, dtype=torch.float64)).clamp(max=19).to(torch.uint8)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A query, a chunk of a protein database and its word hits in scan order (by subject, then offset).

    Most hits are 3-residue word matches at random places (planted exact words); ~1% of the subjects
    carry a mutated copy of a query stretch, and a share of the hits lie on that homologous diagonal.
    META's "hits" is the number drawn; draws at an already used (subject, offset) are dropped
    (large: 1.51 M hits remain).
    """
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    q_len, n_subj, lo, hi, n_hits = s["query_len"], s["subjects"], s["min_len"], s["max_len"], s["hits"]
    query = _residues(q_len, g)
    u = torch.rand(n_subj, generator=g, dtype=torch.float64)
    lens = torch.exp(math.log(lo) + u * (math.log(hi) - math.log(lo))).round().long().clamp(lo, hi)
    starts = torch.zeros(n_subj, dtype=torch.long)
    starts[1:] = torch.cumsum(lens, 0)[:-1]
    subjects = _residues(int(lens.sum()), g)

    hom_subj, hom_q = [], []
    homologs = torch.nonzero(torch.rand(n_subj, generator=g) < HOMOLOG_FRACTION).flatten().tolist() or [0]
    per_homolog = max(1, n_hits // (4 * n_subj) * 4)
    for k in homologs:
        seg = min(int(lens[k]), q_len, int(torch.randint(60, 300, (1,), generator=g)))
        qs = int(torch.randint(0, q_len - seg + 1, (1,), generator=g))
        ds = int(torch.randint(0, int(lens[k]) - seg + 1, (1,), generator=g))
        piece = query[qs:qs + seg].clone()
        mut = torch.rand(seg, generator=g) < 0.3
        piece[mut] = _residues(int(mut.sum()), g)
        subjects[starts[k] + ds:starts[k] + ds + seg] = piece
        offs = torch.randint(0, seg, (per_homolog,), generator=g)
        hom_subj.append(torch.full((per_homolog,), k, dtype=torch.long))
        hom_q.append(torch.stack([qs + offs, ds + offs], 1))

    # random word hits on a 4-residue grid of subject offsets (their planted words never overlap)
    n_rand = n_hits - per_homolog * len(homologs)
    r_subj = torch.randint(0, n_subj, (max(n_rand, 0),), generator=g)
    slots = ((lens[r_subj] - 3).clamp(min=0) // 4 + 1)
    r_s = 2 + 4 * (torch.rand(r_subj.numel(), generator=g, dtype=torch.float64) * slots).long()
    r_s = torch.minimum(r_s, lens[r_subj] - 1)
    r_q = torch.randint(2, q_len, (r_subj.numel(),), generator=g)
    subj = torch.cat([r_subj, *hom_subj])
    q_off = torch.cat([r_q, *[h[:, 0] for h in hom_q]])
    s_off = torch.cat([r_s, *[h[:, 1] for h in hom_q]])
    is_rand = torch.arange(subj.numel()) < r_subj.numel()

    key = subj * (hi + 1) + s_off
    uniq, inverse = torch.unique(key, sorted=True, return_inverse=True)
    first = torch.full((uniq.numel(),), subj.numel(), dtype=torch.long)
    first.scatter_reduce_(0, inverse, torch.arange(subj.numel()), reduce="amin")
    subj, q_off, s_off, is_rand = subj[first], q_off[first], s_off[first], is_rand[first]

    planted = is_rand & (s_off >= 2) & (q_off >= 2)
    for k in range(3):
        subjects[starts[subj[planted]] + s_off[planted] - k] = query[q_off[planted] - k]

    to = lambda t: t.to(device=device, dtype=torch.int32)
    return (query.to(device), subjects.to(device), to(starts), to(lens), to(subj), to(q_off), to(s_off),
            blosum62().flatten().to(device), DROPOFF)


def reference(query, subjects, subj_start, subj_len, hit_subj, hit_q, hit_s, blosum, dropoff) -> tuple:
    mat = blosum.view(20, 20).long()
    q = query.long()
    db = subjects.long()
    q_len, total = q.numel(), db.numel()
    qo, so = hit_q.long(), hit_s.long()
    base = subj_start.long()[hit_subj.long()] + so
    slen = subj_len.long()[hit_subj.long()]
    zero = torch.zeros_like(qo)

    n_left = torch.minimum(qo, so) + 1
    score, best, best_t = zero.clone(), zero.clone(), torch.full_like(qo, -1)
    alive, t = n_left > 0, 0
    while bool(alive.any()):
        sc = mat[q[(qo - t).clamp(0, q_len - 1)], db[(base - t).clamp(0, total - 1)]]
        score = torch.where(alive, score + sc, score)
        better = alive & (score > best)
        best = torch.where(better, score, best)
        best_t = torch.where(better, torch.full_like(best_t, t), best_t)
        alive = alive & (best - score < dropoff) & (t + 1 < n_left)
        t += 1
    left_len = best_t + 1

    n_right = torch.minimum(q_len - qo - 1, slen - so - 1)
    score, r_best, right_len = best.clone(), best.clone(), zero.clone()
    alive, t = n_right > 0, 0
    while bool(alive.any()):
        sc = mat[q[(qo + 1 + t).clamp(0, q_len - 1)], db[(base + 1 + t).clamp(0, total - 1)]]
        score = torch.where(alive, score + sc, score)
        better = alive & (score > r_best)
        r_best = torch.where(better, score, r_best)
        right_len = torch.where(better, torch.full_like(right_len, t + 1), right_len)
        alive = alive & (score > 0) & (r_best - score < dropoff) & (t + 1 < n_right)
        t += 1
    return r_best.to(torch.int32), (qo - left_len + 1).to(torch.int32), (left_len + right_len).to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["hits"]
    return {"bytes": 12 * n + 12 * n, "flops": 10 * 40 * n}
