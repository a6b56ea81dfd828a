"""DuckDB filter Select: a conjunction evaluated over a column batch into true/false selection vectors.

Modelled on DuckDB's PhysicalFilter / ExpressionExecutor::Select for the TPC-H Q6 predicate on
lineitem (DuckDB's physical types: DATE as int32 days since 1970-01-01, DECIMAL(15,2) as int64 in
hundredths):
    l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01'
    AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24
Select fills true_sel with the row ids that pass, in row order, and false_sel with the rest, in row
order, and returns the true count. Here both vectors share one int32 buffer of N row ids: true_sel in
[0, count), false_sel in [count, N). Returns (sel int32 [N], count int32 [1]).
"""
import torch

META = {
    "name": "filter_select",
    "level": 2,
    "category": "database",
    "dtypes": ["int64"],
    "tolerance": {"int64": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 5000},
        "ragged": {"N": 20_011},
        "large": {"N": 59_986_052},
    },
    "baseline_notes": "Three launches over 2048-row vectors (DuckDB's STANDARD_VECTOR_SIZE): per-vector true counts; "
                      "one program turns the counts into exclusive vector offsets with tl.cumsum over chunks of "
                      "1024 counts and a running carry (and writes the total); then each vector re-evaluates the "
                      "predicate, ranks its rows with tl.cumsum and scatters true rows to offset + rank and false "
                      "rows to count + (vector start - offset) + rank. 8 warps, no autotune.",
    "deterministic": True,
}
DATE_LO, DATE_HI = 8766, 9131      # 1994-01-01, 1995-01-01 as days since the epoch
DISC_LO, DISC_HI = 5, 7            # 0.05 .. 0.07 in hundredths
QTY_HI = 2400                      # 24.00 in hundredths
SHIP_FIRST, SHIP_LAST = 8037, 10561  # dbgen's shipdate range, 1992-01-02 .. 1998-12-01


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """l_shipdate int32 [N], l_discount int64 [N], l_quantity int64 [N] (dbgen's distributions), the bounds."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    shipdate = torch.randint(SHIP_FIRST, SHIP_LAST + 1, (n,), generator=g, dtype=torch.int32)
    discount = torch.randint(0, 11, (n,), generator=g, dtype=dt)
    quantity = torch.randint(1, 51, (n,), generator=g, dtype=dt) * 100
    return (shipdate.to(device), discount.to(device), quantity.to(device),
            DATE_LO, DATE_HI, DISC_LO, DISC_HI, QTY_HI)


def reference(shipdate, discount, quantity, date_lo, date_hi, disc_lo, disc_hi, qty_hi) -> tuple:
    keep = ((shipdate >= date_lo) & (shipdate < date_hi) & (discount >= disc_lo) & (discount <= disc_hi)
            & (quantity < qty_hi))
    rows = torch.arange(shipdate.numel(), device=shipdate.device, dtype=torch.int32)
    sel = torch.cat([rows[keep], rows[~keep]])
    count = keep.sum().reshape(1).to(torch.int32)
    return sel, count


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 24 * n, "flops": 6 * n}
