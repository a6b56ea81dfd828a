"""Levenshtein edit distance of string pairs (cuDF nvtext::edit_distance, row i of strings against row i of targets).

Both columns are cuDF strings columns (uint8 chars + int32 offsets) of short ASCII strings, at most
64 bytes each (entity names, titles, normalised addresses in fuzzy matching / near-duplicate
filtering). Output: int32 distance per pair (insert, delete, substitute all cost 1).
"""
import torch

META = {
    "name": "edit_distance_pairs",
    "level": 2,
    "category": "text",
    "dtypes": ["uint8"],
    "tolerance": {"uint8": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 12},
        "ragged": {"N": 37},
        "large": {"N": 2097152},
    },
    "baseline_notes": "Myers / Hyyro bit-parallel edit distance (uint64 bit-vectors, strings <= 64 bytes) with "
                      "pairs as lanes: 128 pairs per program, each lane's string packed into eight uint64 words, one "
                      "column step per target byte up to the block's longest target, the match mask built in-thread "
                      "with SWAR byte compares; 4 warps, no autotune.",
    "deterministic": True,
}

MAX_LEN = 64


def _pack(padded: torch.Tensor, lengths: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    keep = torch.arange(padded.shape[1])[None, :] < lengths[:, None]
    offsets = torch.zeros(lengths.numel() + 1, dtype=torch.int32)
    offsets[1:] = torch.cumsum(lengths, 0).to(torch.int32)
    return padded[keep].contiguous(), offsets


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """strings (chars, offsets) and targets (chars, offsets): targets are noisy copies of the strings."""
    N = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    alphabet = torch.tensor(list(b"abcdefghijklmnopqrstuvwxyz     0123456789-."), dtype=torch.uint8)
    a = alphabet[torch.randint(0, len(alphabet), (N, MAX_LEN), generator=g)]
    a_len = torch.randint(4, MAX_LEN + 1, (N,), generator=g)
    # targets: substitute ~15% of the bytes, drop or insert a few at random places, then re-cut the length
    noise = alphabet[torch.randint(0, len(alphabet), (N, MAX_LEN), generator=g)]
    sub = torch.rand(N, MAX_LEN, generator=g) < 0.15
    b = torch.where(sub, noise, a)
    shift = torch.randint(-3, 4, (N,), generator=g)
    cut = torch.randint(0, MAX_LEN, (N,), generator=g)
    col = torch.arange(MAX_LEN)[None, :]
    src = torch.where(col >= cut[:, None], col - shift[:, None], col).clamp(0, MAX_LEN - 1)
    b = torch.where(src == col, b, torch.gather(b, 1, src))
    b_len = (a_len + shift + torch.randint(-2, 3, (N,), generator=g)).clamp(1, MAX_LEN)
    a_len[0], b_len[0] = MAX_LEN, MAX_LEN
    a_chars, a_off = _pack(a, a_len)
    b_chars, b_off = _pack(b, b_len)
    return a_chars.to(device), a_off.to(device), b_chars.to(device), b_off.to(device)


def _unpack(chars, offsets):
    off = offsets.long()
    lengths = off[1:] - off[:-1]
    col = torch.arange(MAX_LEN, device=chars.device)
    idx = (off[:-1, None] + col[None, :]).clamp(max=max(chars.numel() - 1, 0))
    padded = torch.where(col[None, :] < lengths[:, None], chars.long()[idx], -1)
    return padded, lengths


def reference(a_chars, a_offsets, b_chars, b_offsets):
    """Wagner-Fischer dynamic programme, vectorised over the pairs, row by row."""
    a, m = _unpack(a_chars, a_offsets)
    b, n = _unpack(b_chars, b_offsets)
    N = m.numel()
    dev = a.device
    row = torch.arange(MAX_LEN + 1, device=dev).repeat(N, 1)          # D[0][j] = j
    out = torch.gather(row, 1, n[:, None])[:, 0].clone()               # pairs with m == 0
    for i in range(1, MAX_LEN + 1):
        new = torch.empty_like(row)
        new[:, 0] = i
        for j in range(1, MAX_LEN + 1):
            sub = row[:, j - 1] + (a[:, i - 1] != b[:, j - 1]).long()
            new[:, j] = torch.minimum(torch.minimum(row[:, j] + 1, new[:, j - 1] + 1), sub)
        row = new
        out = torch.where(m == i, torch.gather(row, 1, n[:, None])[:, 0], out)
    return out.to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    N = META["sizes"][size]["N"]
    mean = (4 + MAX_LEN) / 2
    return {"bytes": int(2 * N * mean + 3 * 4 * N), "flops": int(N * mean * mean)}
