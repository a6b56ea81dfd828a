"""As-of join of trades to quotes (Polars DataFrame.join_asof, strategy="backward", with tolerance).

Both tables are sorted by their int64 nanosecond timestamp. For every left row (a trade at time t) the
backward as-of join takes the LAST right row (a quote) whose timestamp is <= t, and keeps it only when
t - quote_time <= tolerance (Polars' `tolerance`); otherwise the row has no match (null in Polars).
Returns the matched quote row index (int32 [N_left], -1 for no match) and the joined bid price
(float32 [N_left], 0 where there is no match).
"""
import torch

META = {
    "name": "join_asof_backward",
    "level": 2,
    "category": "database",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"trades": 3000, "quotes": 700},
        "ragged": {"trades": 4999, "quotes": 1237},
        "large": {"trades": 1_000_000, "quotes": 50_000},
    },
    "baseline_notes": "One program per 256 trades, 4 warps: each trade finds its quote with a branch-free "
                      "binary search over the sorted quote timestamps (ceil(log2(quotes + 1)) steps of one "
                      "gathered int64 load), then checks the tolerance and gathers the bid. No autotune.",
    "deterministic": True,
}
SESSION_OPEN_NS = 1_717_421_400_000_000_000  # 2024-06-03 13:30:00 UTC (09:30 New York), ns since epoch
SESSION_NS = 23_400 * 1_000_000_000  # 6.5 h regular trading session
TOLERANCE_NS = 2_000_000_000  # Polars tolerance="2s"


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Sorted trade times [N] int64, sorted quote times [M] int64, quote bids [M], tolerance in ns (int)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    span = SESSION_NS * min(1.0, s["quotes"] / 50_000)  # the small sizes cover a shorter stretch
    span = int(span)
    # quotes: irregular updates over the session (some gaps longer than the tolerance)
    quote_t = torch.sort(torch.randint(0, span, (s["quotes"],), generator=g)).values
    quote_t[1::97] = quote_t[0::97][: quote_t[1::97].numel()]  # some duplicate timestamps
    quote_t = torch.sort(quote_t).values + SESSION_OPEN_NS
    # trades: a little before the first quote too (pre-open prints get no match)
    trade_t = torch.sort(torch.randint(-span // 200, span, (s["trades"],), generator=g)).values
    trade_t = trade_t + SESSION_OPEN_NS
    bid = 100.0 + torch.cumsum(torch.randn(s["quotes"], generator=g) * 0.01, 0)
    return trade_t.to(device), quote_t.to(device), bid.to(device=device, dtype=dt), TOLERANCE_NS


def reference(trade_t: torch.Tensor, quote_t: torch.Tensor, bid: torch.Tensor, tolerance: int) -> tuple:
    idx = torch.searchsorted(quote_t, trade_t, right=True) - 1
    found = idx >= 0
    safe = idx.clamp(min=0)
    found &= (trade_t - quote_t[safe]) <= tolerance
    idx = torch.where(found, idx, torch.full_like(idx, -1))
    price = torch.where(found, bid[safe], torch.zeros((), dtype=bid.dtype, device=bid.device))
    return idx.to(torch.int32), price


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 16 * s["trades"] + 12 * s["quotes"], "flops": 2 * s["trades"] * 17}
