"""TPC-H Q6 revenue: filter on ship date / discount / quantity, sum of price * discount."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_BLOCK = 2048


@triton.jit
def _q6_partial(shipdate, discount, quantity, price, partial, N,
                date_lo, date_hi, disc_lo, disc_hi, qty_hi, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    lanes = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for blk in range(pid, tl.cdiv(N, BLOCK), nprog):
        offs = blk * BLOCK + lanes
        m = offs < N
        day = tl.load(shipdate + offs, mask=m, other=0).to(tl.float32)
        disc = tl.load(discount + offs, mask=m, other=0.0)
        qty = tl.load(quantity + offs, mask=m, other=0.0)
        ext = tl.load(price + offs, mask=m, other=0.0)
        keep = (day >= date_lo) & (day < date_hi) & (disc >= disc_lo) & (disc <= disc_hi) & (qty < qty_hi)
        acc += tl.where(keep, ext * disc, 0.0)
    tl.store(partial + pid, tl.sum(acc, axis=0))


@triton.jit
def _sum_partials(partial, out, P, BP: tl.constexpr):
    idx = tl.arange(0, BP)
    p = tl.load(partial + idx, mask=idx < P, other=0.0)
    tl.store(out, tl.sum(p, axis=0))


def run(shipdate, discount, quantity, price, date_lo, date_hi, disc_lo, disc_hi, qty_hi):
    n = shipdate.numel()
    grid = (max(1, min(_VECTOR_CORES, triton.cdiv(n, _BLOCK))),)
    partial = torch.empty(grid[0], device=price.device, dtype=torch.float32)
    out = torch.empty(1, device=price.device, dtype=torch.float32)
    _q6_partial[grid](shipdate, discount, quantity, price, partial, n,
                      float(date_lo), float(date_hi), disc_lo, disc_hi, qty_hi, BLOCK=_BLOCK)
    _sum_partials[(1,)](partial, out, grid[0], BP=triton.next_power_of_2(grid[0]))
    return out
