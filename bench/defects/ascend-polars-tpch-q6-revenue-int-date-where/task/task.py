"""TPC-H Q6 (forecasting revenue change) as polars runs it (pds-h q6): one filter + one ungrouped sum.

    select sum(l_extendedprice * l_discount) as revenue
    from lineitem
    where l_shipdate >= date '1994-01-01' and l_shipdate < date '1995-01-01'
      and l_discount between 0.05 and 0.07 and l_quantity < 24

polars keeps l_shipdate as a Date column (Arrow Date32: int32 days since 1970-01-01); the decimal
columns are brought to the device as float32 (the NPU has no fp64 vector math). The filter is evaluated
in float32 exactly as polars compares a Float32 column against a literal, the sum is returned as a
one-element float32 tensor.
"""
import datetime

import torch

_EPOCH = datetime.date(1970, 1, 1)


def _days(y: int, m: int, d: int) -> int:
    return (datetime.date(y, m, d) - _EPOCH).days


META = {
    "name": "tpch_q6_revenue",
    "level": 1,
    "category": "filter_aggregate",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 5000},
        "ragged": {"N": 7919},
        "large": {"N": 59_986_052},  # lineitem at scale factor 10
    },
    "baseline_notes": "40 programs (the 910B's vector cores) stride over blocks of 2048 rows; the Date32 column "
                      "is converted to float32 on chip (day numbers < 2^24 are exact) so the whole predicate "
                      "is float compares, a select keeps price * discount, one vector accumulator per program; "
                      "a one-program kernel adds the 40 partial sums. No autotune.",
    "deterministic": True,
}

DATE_LO = _days(1994, 1, 1)   # 8766
DATE_HI = _days(1995, 1, 1)   # 9131
DISC_LO, DISC_HI, QTY_HI = 0.05, 0.07, 24.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Columns as dbgen draws them: l_shipdate int32 [N] (days), l_discount, l_quantity,
    l_extendedprice float32 [N]; then the query's constants (date bounds as ints, the rest as floats)."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    order_lo, order_hi = _days(1992, 1, 1), _days(1998, 8, 2) - 151
    orderdate = torch.randint(order_lo, order_hi + 1, (n,), generator=g, dtype=torch.int32)
    shipdate = orderdate + torch.randint(1, 122, (n,), generator=g, dtype=torch.int32)
    quantity = torch.randint(1, 51, (n,), generator=g).to(torch.float32)
    discount = torch.randint(0, 11, (n,), generator=g).to(torch.float32) / 100.0
    retail = 900.0 + torch.rand(n, generator=g) * 1100.0
    price = torch.round(quantity * retail * 100.0) / 100.0
    return (shipdate.to(device), discount.to(dt).to(device), quantity.to(dt).to(device),
            price.to(dt).to(device), DATE_LO, DATE_HI, DISC_LO, DISC_HI, QTY_HI)


def reference(shipdate, discount, quantity, price, date_lo, date_hi, disc_lo, disc_hi, qty_hi):
    keep = ((shipdate >= date_lo) & (shipdate < date_hi) & (discount >= disc_lo) & (discount <= disc_hi)
            & (quantity < qty_hi))
    rev = (price * discount)[keep].double().sum()
    return rev.reshape(1).to(price.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 16 * n, "flops": 7 * n}
