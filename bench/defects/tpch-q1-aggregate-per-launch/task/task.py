"""TPC-H Query 1 (pricing summary report) over lineitem columns: rows with l_shipdate <= cutoff,
grouped by (l_returnflag, l_linestatus). Groups are the 6 slots flag * 2 + status (flag A=0, N=1,
R=2; status F=0, O=1). Output fp64 [6, 8]: sum_qty, sum_base_price, sum_disc_price, sum_charge,
avg_qty, avg_price, avg_disc, count_order (a group with no rows is all zeros)."""
import torch

META = {
    "name": "tpch_q1_groupby",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-4}},
    "sizes": {
        "small": {"rows": 6000},
        "ragged": {"rows": 12345},
        "large": {"rows": 59986052},
    },
    "baseline_notes": "One aggregation launch: programs over 4,096-row blocks read the seven columns once, "
                      "form all six aggregates for the six group slots in registers and add them to a "
                      "[6, 6] fp64 accumulator (36 atomics per block); a one-program finalize writes the "
                      "[6, 8] report.",
    "deterministic": True,
}

GROUPS, AGGS = 6, 6
EPOCH_1995_06_17 = 1263      # days from 1992-01-01
LAST_ORDERDATE = 2405        # 1998-08-02
CUTOFF = 2436                # 1998-12-01 - 90 days = 1998-09-02


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Columns as dbgen draws them: quantity 1..50, extendedprice = quantity * retail price, discount
    0.00..0.10, tax 0.00..0.08 (fp32), returnflag / linestatus int8, shipdate int32 days since
    1992-01-01; plus the cutoff date."""
    n = META["sizes"][size]["rows"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    qty = torch.randint(1, 51, (n,), generator=g).float()
    partkey = torch.randint(1, 2_000_001, (n,), generator=g)
    retail = (90000 + (partkey // 10) % 20001 + 100 * (partkey % 1000)).float() / 100.0
    price = qty * retail
    disc = torch.randint(0, 11, (n,), generator=g).float() / 100.0
    tax = torch.randint(0, 9, (n,), generator=g).float() / 100.0
    orderdate = torch.randint(0, LAST_ORDERDATE - 151 + 1, (n,), generator=g)
    shipdate = orderdate + torch.randint(1, 122, (n,), generator=g)
    receipt = shipdate + torch.randint(1, 31, (n,), generator=g)
    returned = torch.randint(0, 2, (n,), generator=g) * 2          # R=2 or A=0
    flag = torch.where(receipt <= EPOCH_1995_06_17, returned, torch.ones_like(returned))
    status = (shipdate > EPOCH_1995_06_17).long()
    return (qty.to(dt).to(device), price.to(dt).to(device), disc.to(dt).to(device), tax.to(dt).to(device),
            flag.to(torch.int8).to(device), status.to(torch.int8).to(device),
            shipdate.to(torch.int32).to(device), CUTOFF)


def reference(qty, price, disc, tax, flag, status, shipdate, cutoff) -> torch.Tensor:
    keep = shipdate <= cutoff
    gid = (flag.long() * 2 + status.long())[keep]
    q, p, d, t = (c.double()[keep] for c in (qty, price, disc, tax))
    dp = p * (1.0 - d)
    cols = torch.stack([q, p, dp, dp * (1.0 + t), d, torch.ones_like(q)], dim=1)
    acc = torch.zeros(GROUPS, AGGS, dtype=torch.float64, device=qty.device).index_add_(0, gid, cols)
    cnt = acc[:, 5]
    safe = torch.where(cnt > 0, cnt, torch.ones_like(cnt))
    avgs = torch.where(cnt[:, None] > 0, acc[:, [0, 1, 4]] / safe[:, None], torch.zeros_like(acc[:, :3]))
    return torch.cat([acc[:, :4], avgs, cnt[:, None]], dim=1)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["rows"]
    return {"bytes": n * (4 * 4 + 1 + 1 + 4) + GROUPS * 8 * 8, "flops": n * (6 + 2 * GROUPS * AGGS)}
