"""Multi-level order-flow imbalance per LOBSTER book update: e_bid - e_ask for every level."""
import torch
import triton
import triton.language as tl

ROWS = 64


@triton.jit
def _mlofi(book, ofi, n_rows, n_levels, row_stride, BL: tl.constexpr, ROWS: tl.constexpr):
    t = tl.program_id(0) * ROWS + 1 + tl.arange(0, ROWS)[:, None]
    lvl = tl.arange(0, BL)[None, :]
    ok = (t < n_rows) & (lvl < n_levels)
    cur = book + t * row_stride + 4 * lvl
    prv = cur - row_stride
    ask_p = tl.load(cur, mask=ok, other=0)
    ask_q = tl.load(cur + 1, mask=ok, other=0)
    bid_p = tl.load(cur + 2, mask=ok, other=0)
    bid_q = tl.load(cur + 3, mask=ok, other=0)
    ask_p0 = tl.load(prv, mask=ok, other=0)
    ask_q0 = tl.load(prv + 1, mask=ok, other=0)
    bid_p0 = tl.load(prv + 2, mask=ok, other=0)
    bid_q0 = tl.load(prv + 3, mask=ok, other=0)
    e_bid = tl.where(bid_p >= bid_p0, bid_q, 0) - tl.where(bid_p <= bid_p0, bid_q0, 0)
    e_ask = tl.where(ask_p <= ask_p0, ask_q, 0) - tl.where(ask_p >= ask_p0, ask_q0, 0)
    tl.store(ofi + (t - 1) * n_levels + lvl, (e_bid - e_ask).to(tl.float32), mask=ok)


def run(book: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = book.shape
    n_levels = n_cols // 4
    ofi = torch.empty(n_rows - 1, n_levels, device=book.device, dtype=torch.float32)
    grid = (triton.cdiv(n_rows - 1, ROWS),)
    _mlofi[grid](book, ofi, n_rows, n_levels, book.stride(0),
                 BL=triton.next_power_of_2(n_levels), ROWS=ROWS)
    return ofi
