"""Backward as-of join with tolerance: each trade takes the last quote at or before its timestamp."""
import torch
import triton
import triton.language as tl

BLOCK_T = 128


@triton.jit
def _asof_backward(trade_t, quote_t, bid, out_idx, out_bid, n_trades, n_quotes, tolerance, steps,
                   BLOCK_T: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_T + tl.arange(0, BLOCK_T)
    ok = rows < n_trades
    t = tl.load(trade_t + rows, mask=ok, other=0)
    # quotes at or before each trade (upper bound of t in the sorted quote times): the match is the last
    lo = tl.zeros([BLOCK_T], dtype=tl.int32)
    hi = tl.zeros([BLOCK_T], dtype=tl.int32) + n_quotes
    for _ in range(steps):
        active = lo < hi
        mid = (lo + hi) // 2
        qt = tl.load(quote_t + mid, mask=active, other=0)
        go_right = active & (qt <= t)
        lo = tl.where(go_right, mid + 1, lo)
        hi = tl.where(active & (qt > t), mid, hi)
    count = lo
    idx = count - 1
    has_quote = ok & (idx >= 0)
    matched_t = tl.load(quote_t + idx, mask=has_quote, other=0)
    found = has_quote & (t - matched_t <= tolerance)
    price = tl.load(bid + idx, mask=found, other=0.0)
    tl.store(out_idx + rows, tl.where(found, idx, -1), mask=ok)
    tl.store(out_bid + rows, price, mask=ok)


def run(trade_t: torch.Tensor, quote_t: torch.Tensor, bid: torch.Tensor, tolerance: int) -> tuple:
    n_trades, n_quotes = trade_t.shape[0], quote_t.shape[0]
    out_idx = torch.empty(n_trades, device=trade_t.device, dtype=torch.int32)
    out_bid = torch.empty(n_trades, device=trade_t.device, dtype=bid.dtype)
    grid = (triton.cdiv(n_trades, BLOCK_T),)
    _asof_backward[grid](trade_t, quote_t, bid, out_idx, out_bid, n_trades, n_quotes, tolerance,
                         n_quotes.bit_length(), BLOCK_T=BLOCK_T, num_warps=4)
    return out_idx, out_bid
