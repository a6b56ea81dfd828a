"""Stockfish NNUE feature-transformer accumulators along game lines (incremental update with king-move refresh).

Stockfish keeps, per position, the HalfKAv2_hm accumulator acc[p] = bias + sum of the int16 weight rows
W[f] over the active features f of perspective p (p = white, black). A feature is one piece on one square
seen from p's king: f = orient(sq) + piece_index(piece, p) + 704 * king_bucket(p's king square), with
squares flipped vertically for black and mirrored horizontally so that the king sits on files e-h
(22,528 features, 32 king buckets x 11 piece planes x 64 squares, both kings sharing one plane).

Walking forward over a line of positions (the StateInfo stack), update_accumulator_incremental derives
each accumulator from the previous one with the move's dirty pieces:
    acc_t[p] = acc_{t-1}[p] - sum W[removed] + sum W[added]   (at most 2 removed and 2 added features)
except when p's own king moved (every feature of p changes: king bucket and mirroring), and at the first
position of the line, where the accumulator is refreshed: acc_t[p] = bias + sum W[active_t[p]].

Inputs describe G game lines of T plies each; the output is every position's accumulator pair,
int16 [G, T, 2, L1]. All sums fit int16 (the net's weights are small), so every order of summation gives
the same integers.
"""
import random

import torch

META = {
    "name": "nnue_accumulator_line",
    "level": 2,
    "category": "gather",
    "dtypes": ["int16"],
    "tolerance": {"int16": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"G": 4, "T": 8, "L1": 128},
        "ragged": {"G": 3, "T": 7, "L1": 200},
        "large": {"G": 32, "T": 128, "L1": 3072},
    },
    "baseline_notes": "One launch, grid (G, 2, cdiv(L1, 512)): each program owns 512 accumulator lanes of one "
                      "line and perspective and walks the T plies in order with the int32 accumulator in "
                      "registers: refresh (bias + active rows) where the flag is set, else subtract the "
                      "removed rows and add the added ones, storing every ply's int16 accumulator. "
                      "4 warps, no autotune.",
    "deterministic": True,
}

N_FEATURES = 22528  # 32 king buckets * 704
PS_NB = 704
MAX_ACTIVE = 32
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = range(6)
BACK_RANK = [ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK]


def _feature(persp: int, sq: int, color: int, kind: int, ksq: int) -> int:
    """HalfKAv2_hm index of (color, kind) on sq seen by perspective persp whose king stands on ksq."""
    flip = 56 * persp
    mirror = 7 if (ksq & 7) < 4 else 0
    o_ksq = ksq ^ flip ^ mirror
    bucket = (o_ksq >> 3) * 4 + (o_ksq & 7) - 4
    plane = 640 if kind == KING else kind * 128 + (0 if color == persp else 64)
    return (sq ^ flip ^ mirror) + plane + PS_NB * bucket


def _start_board() -> dict:
    board = {}
    for f in range(8):
        board[f] = (0, BACK_RANK[f])
        board[8 + f] = (0, PAWN)
        board[48 + f] = (1, PAWN)
        board[56 + f] = (1, BACK_RANK[f])
    return board


def _king(board: dict, color: int) -> int:
    return next(sq for sq, (c, k) in board.items() if c == color and k == KING)


def _random_move(board: dict, side: int, rng: random.Random):
    """A plausible (not necessarily legal) move: (from, to, piece, captured or None, new piece)."""
    ksq = _king(board, side)
    own = sorted(sq for sq, (c, k) in board.items() if c == side and k != KING)
    if rng.random() < 0.08 or not own:
        steps = [ksq + d for d in (-9, -8, -7, -1, 1, 7, 8, 9)
                 if 0 <= ksq + d < 64 and abs(((ksq + d) & 7) - (ksq & 7)) <= 1]
        steps = [s for s in steps if s not in board or (board[s][0] != side and board[s][1] != KING)]
        if steps:
            to = rng.choice(steps)
            return ksq, to, (side, KING), board.get(to), (side, KING)
    theirs = sorted(sq for sq, (c, k) in board.items() if c != side and k != KING)
    frm = rng.choice(own)
    if theirs and rng.random() < 0.08:
        to = rng.choice(theirs)
    else:
        to = rng.choice([s for s in range(64) if s not in board])
    piece = board[frm]
    new = (side, QUEEN) if piece[1] == PAWN and (to >> 3) == (7 if side == 0 else 0) else piece
    return frm, to, piece, board.get(to), new


def _active(board: dict, persp: int) -> list:
    ksq = _king(board, persp)
    return [_feature(persp, sq, c, k, ksq) for sq, (c, k) in sorted(board.items())]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """W int16 [22528, L1], bias int16 [L1], then per (line, ply, perspective): active features int32 [.., 32]
    (-1 padded) and their count, removed / added features int32 [.., 2] (-1 padded), refresh flag int32."""
    s = META["sizes"][size]
    G, T, L1 = s["G"], s["T"], s["L1"]
    g = torch.Generator().manual_seed(seed)
    w = (torch.randn(N_FEATURES, L1, generator=g) * 40).round().clamp(-400, 400).to(torch.int16)
    bias = (torch.randn(L1, generator=g) * 120).round().clamp(-600, 600).to(torch.int16)
    active = torch.full((G, T, 2, MAX_ACTIVE), -1, dtype=torch.int32)
    n_active = torch.zeros(G, T, 2, dtype=torch.int32)
    removed = torch.full((G, T, 2, 2), -1, dtype=torch.int32)
    added = torch.full((G, T, 2, 2), -1, dtype=torch.int32)
    refresh = torch.zeros(G, T, 2, dtype=torch.int32)
    for line in range(G):
        rng = random.Random(seed * 100003 + line)
        board, side = _start_board(), 0
        for _ in range(rng.randrange(0, 61)):          # start the line somewhere inside a game
            frm, to, piece, captured, new = _random_move(board, side, rng)
            del board[frm]
            board[to] = new
            side ^= 1
        for t in range(T):
            if t == 0:
                refresh[line, t] = 1
            else:
                frm, to, piece, captured, new = _random_move(board, side, rng)
                before = {p: _king(board, p) for p in (0, 1)}
                del board[frm]
                board[to] = new
                for p in (0, 1):
                    if piece == (p, KING):
                        refresh[line, t, p] = 1
                        continue
                    ksq = before[p]
                    rem = [_feature(p, frm, *piece, ksq)]
                    if captured is not None:
                        rem.append(_feature(p, to, *captured, ksq))
                    removed[line, t, p, :len(rem)] = torch.tensor(rem, dtype=torch.int32)
                    added[line, t, p, 0] = _feature(p, to, *new, ksq)
                side ^= 1
            for p in (0, 1):
                feats = _active(board, p)
                n_active[line, t, p] = len(feats)
                active[line, t, p, :len(feats)] = torch.tensor(feats, dtype=torch.int32)
    dt = getattr(torch, dtype or META["dtypes"][0])
    return (w.to(device=device, dtype=dt), bias.to(device=device, dtype=dt), active.to(device), n_active.to(device),
            removed.to(device), added.to(device), refresh.to(device))


def reference(w, bias, active, n_active, removed, added, refresh) -> torch.Tensor:
    """Every accumulator refreshed from its full active list (what the incremental walk must reproduce)."""
    G, T = active.shape[:2]
    out = torch.empty(G, T, 2, w.shape[1], dtype=w.dtype, device=w.device)
    for line in range(G):
        idx = active[line].long()                       # [T, 2, 32]
        rows = w[idx.clamp(min=0)].to(torch.int32)      # [T, 2, 32, L1]
        rows = rows * (idx >= 0).to(torch.int32)[..., None]
        out[line] = (rows.sum(dim=2) + bias.to(torch.int32)).to(w.dtype)
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    G, T, L1 = s["G"], s["T"], s["L1"]
    # every accumulator written once, ~3 weight rows read per ply and perspective
    return {"bytes": 2 * G * T * 2 * L1 * (1 + 3), "flops": G * T * 2 * L1 * 3}
