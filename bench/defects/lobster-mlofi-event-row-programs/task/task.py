"""Multi-level order-flow imbalance per book update (Cont, Kukanov & Stoikov 2014; Xu, Gould & Howison 2018) on a
LOBSTER orderbook file.

The book is the LOBSTER `orderbook_<L>` matrix, one row per message (book update), 4 * L int32 columns in
LOBSTER order: for level m = 1..L: ask price, ask size, bid price, bid size (prices in 1/10000 dollars). For
every update t >= 1 and level m the contribution to the level-m order-flow imbalance is

    e_bid = 1{Pb_t >= Pb_t-1} qb_t - 1{Pb_t <= Pb_t-1} qb_t-1
    e_ask = 1{Pa_t <= Pa_t-1} qa_t - 1{Pa_t >= Pa_t-1} qa_t-1
    ofi[t-1, m] = e_bid - e_ask

Returns ofi [T-1, L] fp32 (the per-event series that is later summed over bars and regressed on returns).
"""
import torch

META = {
    "name": "lobster_multilevel_ofi",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"T": 97, "L": 10},
        "ragged": {"T": 203, "L": 5},
        "large": {"T": 4_000_000, "L": 10},
    },
    "baseline_notes": "Grid cdiv(T - 1, 64): each program takes 64 consecutive updates x next_power_of_2(L) levels, "
                      "loads the four fields of rows t and t - 1 as [64, BL] tiles (row t - 1 comes from L1/L2), "
                      "computes e_bid - e_ask with selects and stores one [64, BL] fp32 tile. 4 warps, no autotune.",
    "deterministic": True,
}
TICK = 100  # one cent in LOBSTER price units


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """book [T, 4L] int32 in LOBSTER column order: a random-walk best quote with 1-3 tick spreads, levels one tick
    apart (with occasional gaps), sizes in round and odd lots."""
    s = META["sizes"][size]
    T, L = s["T"], s["L"]
    g = torch.Generator().manual_seed(seed)
    moves = torch.randint(-1, 2, (T,), generator=g) * (torch.rand(T, generator=g) < 0.08)
    best_bid = 5_853_300 + TICK * torch.cumsum(moves, 0)
    spread = 1 + (torch.rand(T, generator=g) < 0.25).long() + (torch.rand(T, generator=g) < 0.05).long()
    best_ask = best_bid + TICK * spread
    gaps = torch.cumsum((torch.rand(T, L, generator=g) < 0.1).long(), 1)
    depth = torch.arange(L)[None, :] + gaps - gaps[:, :1]
    bid_p = best_bid[:, None] - TICK * depth
    ask_p = best_ask[:, None] + TICK * depth
    bid_q = torch.randint(1, 40, (T, L), generator=g) * 100 + torch.randint(0, 100, (T, L), generator=g) * (
        torch.rand(T, L, generator=g) < 0.2)
    ask_q = torch.randint(1, 40, (T, L), generator=g) * 100 + torch.randint(0, 100, (T, L), generator=g) * (
        torch.rand(T, L, generator=g) < 0.2)
    book = torch.stack([ask_p, ask_q, bid_p, bid_q], dim=2).reshape(T, 4 * L).to(torch.int32)
    return (book.to(device),)


def reference(book: torch.Tensor) -> torch.Tensor:
    T, L = book.shape[0], book.shape[1] // 4
    b = book.long().reshape(T, L, 4)
    pa, qa, pb, qb = b[..., 0], b[..., 1], b[..., 2], b[..., 3]
    e_bid = (pb[1:] >= pb[:-1]) * qb[1:] - (pb[1:] <= pb[:-1]) * qb[:-1]
    e_ask = (pa[1:] <= pa[:-1]) * qa[1:] - (pa[1:] >= pa[:-1]) * qa[:-1]
    return (e_bid - e_ask).to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    T, L = s["T"], s["L"]
    return {"bytes": 16 * L * T + 4 * L * (T - 1), "flops": 8 * L * (T - 1)}
