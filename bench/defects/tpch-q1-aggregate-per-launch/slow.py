"""TPC-H Q1 on lineitem columns: a generic measure kernel (filter on l_shipdate, group by
(returnflag, linestatus), sum one derived measure) launched once for each of the six aggregates;
a finalize launch writes the report."""
import torch
import triton
import triton.language as tl


@triton.jit
def _group_add(acc_ptr, gid, keep, v, AGG: tl.constexpr, NAGG: tl.constexpr, NGROUP: tl.constexpr):
    for g in tl.static_range(NGROUP):
        part = tl.sum(tl.where(keep & (gid == g), v, 0.0), axis=0)
        tl.atomic_add(acc_ptr + g * NAGG + AGG, part.to(tl.float64), sem="relaxed")


@triton.jit
def _measure(a_ptr, b_ptr, c_ptr, offs, live, NCOLS: tl.constexpr, BLOCK: tl.constexpr):
    if NCOLS == 0:
        v = tl.full([BLOCK], 1.0, tl.float32)
    else:
        v = tl.load(a_ptr + offs, mask=live, other=0.0)
        if NCOLS >= 2:
            v = v * (1.0 - tl.load(b_ptr + offs, mask=live, other=0.0))
        if NCOLS >= 3:
            v = v * (1.0 + tl.load(c_ptr + offs, mask=live, other=0.0))
    return v


@triton.jit
def q1_measure_kernel(a_ptr, b_ptr, c_ptr, flag_ptr, status_ptr, ship_ptr, acc_ptr, n_rows, cutoff,
                      AGG: tl.constexpr, NCOLS: tl.constexpr, BLOCK: tl.constexpr,
                      NAGG: tl.constexpr, NGROUP: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    live = offs < n_rows
    ship = tl.load(ship_ptr + offs, mask=live, other=2147483647)
    keep = live & (ship <= cutoff)
    gid = tl.load(flag_ptr + offs, mask=live, other=0).to(tl.int32) * 2 \
        + tl.load(status_ptr + offs, mask=live, other=0).to(tl.int32)
    v = _measure(a_ptr, b_ptr, c_ptr, offs, live, NCOLS, BLOCK)
    _group_add(acc_ptr, gid, keep, v, AGG, NAGG, NGROUP)


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
    grid = (triton.cdiv(n, block),)
    # sum_qty, sum_base_price, sum_disc_price, sum_charge, sum_disc, count_order
    measures = ((qty, qty, qty, 1), (price, price, price, 1), (price, disc, disc, 2),
                (price, disc, tax, 3), (disc, disc, disc, 1), (qty, qty, qty, 0))
    for agg, (a, b, c, ncols) in enumerate(measures):
        q1_measure_kernel[grid](a, b, c, flag, status, shipdate, acc, n, cutoff,
                                AGG=agg, NCOLS=ncols, BLOCK=block, NAGG=nagg, NGROUP=ngroup, **cfg)
    q1_finalize_kernel[(1,)](acc, out, NAGG=nagg, NGROUP=ngroup, GP=triton.next_power_of_2(ngroup))
    return out
