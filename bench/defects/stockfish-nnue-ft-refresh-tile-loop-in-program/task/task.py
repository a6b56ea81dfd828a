"""Stockfish NNUE feature-transformer refresh for a batch of positions (HalfKAv2_hm, int16 accumulators).

For every position and perspective p (white, black) the accumulator is rebuilt from scratch:
    acc[b, p, :] = bias + sum over the active features f of (b, p) of W[f, :]      (int16 weights, L1 lanes)
A feature is one piece on one square seen from p's king: f = orient(sq) + piece_index(piece, p)
+ 704 * king_bucket(p's king square); squares are flipped vertically for black and mirrored so that the king
sits on files e-h (22,528 features: 32 king buckets x 11 piece planes x 64 squares, the two kings sharing one
plane). Every piece on the board is active, so a position has between 2 and 32 active features per
perspective; the lists are -1 padded to 32. This is Stockfish's update_accumulator_refresh (also the path
the AccumulatorCaches refresh falls back to) for a batch of leaves evaluated together; PSQT accumulation is
left out. Sums fit int16, so the result is exact in any summation order.
"""
import random

import torch

META = {
    "name": "nnue_accumulator_refresh",
    "level": 2,
    "category": "gather",
    "dtypes": ["int16"],
    "tolerance": {"int16": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"B": 3, "L1": 1024},
        "ragged": {"B": 5, "L1": 200},
        "large": {"B": 64, "L1": 3072},
    },
    "baseline_notes": "Grid (B, 2, cdiv(L1, 512)): each program owns one 512-lane tile of one position's "
                      "accumulator for one perspective, starts from the bias and adds the active features' "
                      "weight rows in an int32 register tile, one int16 store. 4 warps, no autotune.",
    "deterministic": True,
}

N_FEATURES = 22528  # 32 king buckets * 704
PS_NB = 704
MAX_ACTIVE = 32
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = range(6)
ARMY = [PAWN] * 8 + [KNIGHT, KNIGHT, BISHOP, BISHOP, ROOK, ROOK, QUEEN]


def _feature(persp: int, sq: int, color: int, kind: int, ksq: int) -> int:
    """HalfKAv2_hm index of (color, kind) on sq seen by perspective persp whose king stands on ksq."""
    flip = 56 * persp
    mirror = 7 if (ksq & 7) < 4 else 0
    o_ksq = ksq ^ flip ^ mirror
    bucket = (o_ksq >> 3) * 4 + (o_ksq & 7) - 4
    plane = 640 if kind == KING else kind * 128 + (0 if color == persp else 64)
    return (sq ^ flip ^ mirror) + plane + PS_NB * bucket


def _random_position(rng: random.Random) -> dict:
    """Kings plus a random subset of each army on random squares (pawns off the back ranks)."""
    board = {}
    squares = list(range(64))
    rng.shuffle(squares)
    board[squares.pop()] = (0, KING)
    board[squares.pop()] = (1, KING)
    for color in (0, 1):
        keep = rng.randint(3, 15)
        for kind in rng.sample(ARMY, keep):
            sq = next(s for s in squares if kind != PAWN or 8 <= s < 56)
            squares.remove(sq)
            board[sq] = (color, kind)
    return board


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """W int16 [22528, L1], bias int16 [L1], active features int32 [B, 2, 32] (-1 padded), counts int32 [B, 2]."""
    s = META["sizes"][size]
    B, L1 = s["B"], s["L1"]
    g = torch.Generator().manual_seed(seed)
    w = (torch.randn(N_FEATURES, L1, generator=g) * 40).round().clamp(-400, 400).to(torch.int16)
    bias = (torch.randn(L1, generator=g) * 120).round().clamp(-600, 600).to(torch.int16)
    active = torch.full((B, 2, MAX_ACTIVE), -1, dtype=torch.int32)
    n_active = torch.zeros(B, 2, dtype=torch.int32)
    rng = random.Random(seed)
    for b in range(B):
        board = _random_position(rng)
        for p in (0, 1):
            ksq = next(sq for sq, pc in board.items() if pc == (p, KING))
            feats = [_feature(p, sq, c, k, ksq) for sq, (c, k) in sorted(board.items())]
            n_active[b, p] = len(feats)
            active[b, p, :len(feats)] = torch.tensor(feats, dtype=torch.int32)
    dt = getattr(torch, dtype or META["dtypes"][0])
    return w.to(device=device, dtype=dt), bias.to(device=device, dtype=dt), active.to(device), n_active.to(device)


def reference(w, bias, active, n_active) -> torch.Tensor:
    idx = active.long()                                   # [B, 2, 32]
    out = torch.empty(idx.shape[0], 2, w.shape[1], dtype=w.dtype, device=w.device)
    for start in range(0, idx.shape[0], 16):
        part = idx[start:start + 16]
        rows = w[part.clamp(min=0)].to(torch.int32) * (part >= 0).to(torch.int32)[..., None]
        out[start:start + 16] = (rows.sum(dim=2) + bias.to(torch.int32)).to(w.dtype)
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, L1 = s["B"], s["L1"]
    # ~20 weight rows gathered per position and perspective, one accumulator row written
    return {"bytes": 2 * B * 2 * L1 * (20 + 1), "flops": B * 2 * L1 * 20}
