"""DuckDB Select for TPC-H Q6's conjunction: true/false selection vectors of row ids, vector by vector."""
import torch
import triton
import triton.language as tl

VECTOR = 2048  # DuckDB's STANDARD_VECTOR_SIZE


@triton.jit
def _q6_predicate(shipdate, discount, quantity, rows, ok, date_lo, date_hi, disc_lo, disc_hi, qty_hi):
    d = tl.load(shipdate + rows, mask=ok, other=0)
    disc = tl.load(discount + rows, mask=ok, other=0)
    qty = tl.load(quantity + rows, mask=ok, other=0)
    return ok & (d >= date_lo) & (d < date_hi) & (disc >= disc_lo) & (disc <= disc_hi) & (qty < qty_hi)


@triton.jit
def _count_true(shipdate, discount, quantity, counts, n, date_lo, date_hi, disc_lo, disc_hi, qty_hi,
                VECTOR: tl.constexpr):
    v = tl.program_id(0)
    rows = v * VECTOR + tl.arange(0, VECTOR)
    keep = _q6_predicate(shipdate, discount, quantity, rows, rows < n,
                         date_lo, date_hi, disc_lo, disc_hi, qty_hi)
    tl.store(counts + v, tl.sum(keep.to(tl.int32), axis=0))


@triton.jit
def _vector_offsets(counts, offsets, total, n_vectors):
    # exclusive prefix sum of the per-vector true counts; the last running value is the true count
    running = 0
    for v in range(n_vectors):
        c = tl.load(counts + v)
        tl.store(offsets + v, running)
        running += c
    tl.store(total, running)


@triton.jit
def _scatter_rows(shipdate, discount, quantity, offsets, total, sel, n,
                  date_lo, date_hi, disc_lo, disc_hi, qty_hi, VECTOR: tl.constexpr):
    v = tl.program_id(0)
    rows = v * VECTOR + tl.arange(0, VECTOR)
    ok = rows < n
    keep = _q6_predicate(shipdate, discount, quantity, rows, ok,
                         date_lo, date_hi, disc_lo, disc_hi, qty_hi)
    t = keep.to(tl.int32)
    f = (ok & (keep == 0)).to(tl.int32)
    true_base = tl.load(offsets + v)
    false_base = tl.load(total) + v * VECTOR - true_base
    pos = tl.where(keep, true_base + tl.cumsum(t, axis=0) - t, false_base + tl.cumsum(f, axis=0) - f)
    tl.store(sel + pos, rows, mask=ok)


def run(shipdate, discount, quantity, date_lo, date_hi, disc_lo, disc_hi, qty_hi) -> tuple:
    n = shipdate.numel()
    n_vectors = triton.cdiv(n, VECTOR)
    dev = shipdate.device
    counts = torch.empty(n_vectors, dtype=torch.int32, device=dev)
    offsets = torch.empty(n_vectors, dtype=torch.int32, device=dev)
    count = torch.empty(1, dtype=torch.int32, device=dev)
    sel = torch.empty(n, dtype=torch.int32, device=dev)
    bounds = (date_lo, date_hi, disc_lo, disc_hi, qty_hi)
    _count_true[(n_vectors,)](shipdate, discount, quantity, counts, n, *bounds, VECTOR=VECTOR, num_warps=8)
    _vector_offsets[(1,)](counts, offsets, count, n_vectors)
    _scatter_rows[(n_vectors,)](shipdate, discount, quantity, offsets, count, sel, n, *bounds,
                                VECTOR=VECTOR, num_warps=8)
    return sel, count
