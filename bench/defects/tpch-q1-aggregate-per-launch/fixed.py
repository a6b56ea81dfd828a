"""TPC-H Q1 on lineitem columns: one aggregation launch reads every column once and forms all six
aggregates of the six (returnflag, linestatus) slots; a finalize launch writes the report."""
import torch
import triton
import triton.language as tl


@triton.jit
def _group_add(acc_ptr, gid, keep, v, AGG: tl.constexpr, NAGG: tl.constexpr, NGROUP: tl.constexpr):
    for g in tl.static_range(NGROUP):
        part = tl.sum(tl.where(keep & (gid == g), v, 0.0), axis=0)
        tl.atomic_add(acc_ptr + g * NAGG + AGG, part.to(tl.float64), sem="relaxed")


@triton.jit
def q1_aggregate_kernel(qty_ptr, price_ptr, disc_ptr, tax_ptr, flag_ptr, status_ptr, ship_ptr, acc_ptr,
                        n_rows, cutoff, BLOCK: tl.constexpr, NAGG: tl.constexpr, NGROUP: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    live = offs < n_rows
    ship = tl.load(ship_ptr + offs, mask=live, other=2147483647)
    keep = live & (ship <= cutoff)
    gid = tl.load(flag_ptr + offs, mask=live, other=0).to(tl.int32) * 2 \
        + tl.load(status_ptr + offs, mask=live, other=0).to(tl.int32)
    qty = tl.load(qty_ptr + offs, mask=live, other=0.0)
    price = tl.load(price_ptr + offs, mask=live, other=0.0)
    disc = tl.load(disc_ptr + offs, mask=live, other=0.0)
    tax = tl.load(tax_ptr + offs, mask=live, other=0.0)
    disc_price = price * (1.0 - disc)
    _group_add(acc_ptr, gid, keep, qty, 0, NAGG, NGROUP)
    _group_add(acc_ptr, gid, keep, price, 1, NAGG, NGROUP)
    _group_add(acc_ptr, gid, keep, disc_price, 2, NAGG, NGROUP)
    _group_add(acc_ptr, gid, keep, disc_price * (1.0 + tax), 3, NAGG, NGROUP)
    _group_add(acc_ptr, gid, keep, disc, 4, NAGG, NGROUP)
    _group_add(acc_ptr, gid, keep, tl.full([BLOCK], 1.0, tl.float32), 5, NAGG, NGROUP)


@triton.jit
def q1_finalize_kernel(acc_ptr, out_ptr, NAGG: tl.constexpr, NGROUP: tl.constexpr, GP: tl.constexpr):
    g = tl.arange(0, GP)
    ok = g < NGROUP
    row = acc_ptr + g * NAGG
    cnt = tl.load(row + 5, mask=ok, other=0.0)
    inv = tl.where(cnt > 0, 1.0 / tl.where(cnt > 0, cnt, 1.0), 0.0)
    out = out_ptr + g * 8
    for a in tl.static_range(4):
        tl.store(out + a, tl.load(row + a, mask=ok, other=0.0), mask=ok)
    tl.store(out + 4, tl.load(row + 0, mask=ok, other=0.0) * inv, mask=ok)
    tl.store(out + 5, tl.load(row + 1, mask=ok, other=0.0) * inv, mask=ok)
    tl.store(out + 6, tl.load(row + 4, mask=ok, other=0.0) * inv, mask=ok)
    tl.store(out + 7, cnt, mask=ok)


def run(qty, price, disc, tax, flag, status, shipdate, cutoff):
    n = qty.numel()
    ngroup, nagg = 6, 6
    acc = torch.zeros((ngroup, nagg), device=qty.device, dtype=torch.float64)
    out = torch.empty((ngroup, 8), device=qty.device, dtype=torch.float64)
    block = 4096
    cfg = {"num_warps": 8}
    q1_aggregate_kernel[(triton.cdiv(n, block),)](qty, price, disc, tax, flag, status, shipdate, acc, n, cutoff,
                                                  BLOCK=block, NAGG=nagg, NGROUP=ngroup, **cfg)
    q1_finalize_kernel[(1,)](acc, out, NAGG=nagg, NGROUP=ngroup, GP=triton.next_power_of_2(ngroup))
    return out
