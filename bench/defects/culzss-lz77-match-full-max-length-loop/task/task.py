"""LZ77/LZSS longest-match search over a sliding window, per chunk (the match-finding stage of a GPU LZSS compressor).

For every position i of a chunk, find the longest match data[i : i + L] == data[i - d : i - d + L] over
the distances d = 1..window (the source must start inside the chunk; overlapping copies allowed; the
match stops at the chunk end and at max_match bytes). Ties go to the smaller distance. Matches shorter
than MIN_MATCH = 3 bytes are reported as (0, 0), as a literal. Outputs int32 length and distance per
position; positions past the chunk's length are (0, 0).
"""
import torch

MIN_MATCH = 3

META = {
    "name": "lz77_window_match_finder",
    "level": 2,
    "category": "compression",
    "dtypes": ["uint8"],
    "tolerance": {"uint8": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"C": 2, "S": 120, "window": 12, "max_match": 24},
        "ragged": {"C": 2, "S": 141, "window": 11, "max_match": 19},
        "large": {"C": 32, "S": 65536, "window": 256, "max_match": 258},
    },
    "baseline_notes": "2-D grid (128-position tile, chunk): for each distance d the tile compares data[i + t] with "
                      "data[i - d + t] under a per-lane alive mask, in a while loop that stops at max_match or as "
                      "soon as no lane of the tile still matches; keeps the longest (first) match; 4 warps, no "
                      "autotune.",
    "deterministic": True,
}


def _text(n: int, window: int, max_match: int, g: torch.Generator) -> torch.Tensor:
    """Log-like text: Zipf-distributed words, plus phrases copied from within the window and long byte runs."""
    vocab = 512
    word_len = torch.randint(2, 9, (vocab,), generator=g)
    letters = torch.randint(97, 123, (vocab, 9), generator=g)
    letters[torch.arange(vocab), word_len] = 32
    rank = torch.arange(1, vocab + 1, dtype=torch.float64)
    words = torch.multinomial(1.0 / rank, n // 3 + 16, replacement=True, generator=g)
    keep = torch.arange(9)[None, :] <= word_len[words][:, None]
    text = letters[words][keep][:n].to(torch.uint8).clone()
    for _ in range(max(1, n // 160)):
        length = int(torch.randint(6, 48, (1,), generator=g))
        dst = int(torch.randint(window, max(window + 1, n - length), (1,), generator=g))
        src = dst - int(torch.randint(1, window + 1, (1,), generator=g))
        text[dst:dst + length] = text[src:src + length].clone()
    for _ in range(max(1, n // 8192)):
        run = max_match + 20
        dst = int(torch.randint(0, max(1, n - run), (1,), generator=g))
        text[dst:dst + run] = int(torch.randint(32, 123, (1,), generator=g))
    return text[:n]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """data [C, S] uint8 (bytes past a chunk's length are unrelated), lengths [C] int32, window, max_match."""
    s = META["sizes"][size]
    C, S = s["C"], s["S"]
    g = torch.Generator().manual_seed(seed)
    data = torch.stack([_text(S, s["window"], s["max_match"], g) for _ in range(C)])
    # a batch of full chunks; the last one holds the tail of the buffer
    lengths = torch.full((C,), S, dtype=torch.int32)
    lengths[-1] = int(torch.randint(S // 2, S, (1,), generator=g))
    past = torch.arange(S)[None, :] >= lengths[:, None]
    data[past] = torch.randint(0, 256, (int(past.sum()),), generator=g, dtype=torch.uint8)
    return data.to(device), lengths.to(device), s["window"], s["max_match"]


def reference(data: torch.Tensor, lengths: torch.Tensor, window: int, max_match: int):
    C, S = data.shape
    pos = torch.arange(S, device=data.device).expand(C, S)
    valid = pos < lengths.long()[:, None]
    best_len = torch.zeros(C, S, dtype=torch.int64, device=data.device)
    best_dist = torch.zeros_like(best_len)
    for d in range(1, min(window, S - 1) + 1):
        eq = torch.zeros(C, S, dtype=torch.bool, device=data.device)
        eq[:, d:] = data[:, d:] == data[:, :-d]
        eq &= valid
        # first mismatch at or after i: the match length is its distance from i
        stop = torch.where(eq, S, pos).flip(1).cummin(1).values.flip(1)
        run = (stop - pos).clamp(max=max_match)
        better = run > best_len
        best_len = torch.where(better, run, best_len)
        best_dist = torch.where(better, d, best_dist)
    lit = best_len < MIN_MATCH
    return (best_len.masked_fill(lit, 0).to(torch.int32), best_dist.masked_fill(lit, 0).to(torch.int32))


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["C"] * s["S"]
    return {"bytes": 9 * n + 4 * s["C"], "flops": 2 * n * s["window"]}
