"""Present values of projected cashflows on a log-linear discount curve (QuantLib DiscountCurve)."""
import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _discount_cashflows(node_t, node_df, cf_t, amount, pv, n, m, search_steps, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    t = tl.load(cf_t + offs, mask=mask, other=0.0)
    a = tl.load(amount + offs, mask=mask, other=0.0)
    # segment i with t_i <= t < t_{i+1}, clamped to [0, m - 2] (Interpolation::locate)
    lo = tl.zeros([BLOCK], dtype=tl.int32)
    hi = tl.full([BLOCK], m - 1, dtype=tl.int32)
    for _ in range(search_steps):
        mid = (lo + hi) >> 1
        right = t >= tl.load(node_t + mid)
        lo = tl.where(right, mid, lo)
        hi = tl.where(right, hi, mid)
    i = lo
    t0 = tl.load(node_t + i)
    t1 = tl.load(node_t + i + 1)
    l0 = tl.log(tl.load(node_df + i))
    l1 = tl.log(tl.load(node_df + i + 1))
    w = (t - t0) / (t1 - t0)
    df = tl.exp(l0 + w * (l1 - l0))
    tl.store(pv + offs, a * df, mask=mask)


def run(node_t, node_df, cf_t, amount) -> torch.Tensor:
    n, m = cf_t.shape[0], node_t.shape[0]
    pv = torch.empty_like(amount)
    search_steps = (m - 2).bit_length()  # ceil(log2(m - 1)) halvings of [0, m - 1]
    grid = (triton.cdiv(n, BLOCK),)
    _discount_cashflows[grid](node_t, node_df, cf_t, amount, pv, n, m, search_steps, BLOCK=BLOCK, num_warps=4)
    return pv
