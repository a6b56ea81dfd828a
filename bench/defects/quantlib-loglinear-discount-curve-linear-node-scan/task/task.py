"""Discounting projected cashflows on a log-linear discount curve (QuantLib InterpolatedDiscountCurve<LogLinear>).

The curve is given by node times t_0 = 0 < t_1 < ... < t_{m-1} (years) and discount factors D_j (D_0 = 1),
here an EIOPA-style risk-free term structure with one node per year out to 150 years. For a cashflow at
time t with amount a, QuantLib's Interpolation::locate picks the segment
    i = clamp(upper_bound(t_1..t_{m-1}, t) index, 0, m - 2)   (t_i <= t < t_{i+1}; the last segment beyond t_{m-1})
and LogLinearInterpolation gives
    ln D(t) = ln D_i + (t - t_i) / (t_{i+1} - t_i) * (ln D_{i+1} - ln D_i).
Returns pv = a * D(t), fp32 [n]. The cashflows are monthly projections of insurance model points:
t = (month + offset_p) / 12 for each model point p.
"""
import torch

META = {
    "name": "discount_cashflows_loglinear",
    "level": 1,
    "category": "quantitative-finance",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"points": 4, "months": 250, "years": 150},
        "ragged": {"points": 7, "months": 313, "years": 150},
        "large": {"points": 16384, "months": 1024, "years": 150},
    },
    "baseline_notes": "One elementwise launch, BLOCK=1024, 4 warps: each cashflow finds its curve segment with a "
                      "branch-free binary search over the node times (ceil(log2(m - 1)) = 8 gathered compares for "
                      "151 nodes, all L1 hits), gathers the bracketing nodes and discount factors, interpolates "
                      "log-linearly and stores amount * D(t); no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Node times [m], node discount factors [m], cashflow times [n] and amounts [n] (n = points * months)."""
    s = META["sizes"][size]
    p, months, years = s["points"], s["months"], s["years"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    node_t = torch.arange(years + 1, dtype=torch.float64)
    # Smith-Wilson-like shape: short rates near 2.5%, converging to a 3.45% ultimate forward rate.
    zero = 0.0345 - 0.01 * torch.exp(-node_t / 12.0) + 0.002 * torch.randn(years + 1, generator=g, dtype=torch.float64) \
        * torch.exp(-node_t / 30.0)
    node_df = torch.exp(-zero * node_t)
    offset = torch.rand(p, 1, generator=g, dtype=torch.float64)
    cf_t = ((torch.arange(months, dtype=torch.float64)[None, :] + offset) / 12.0).reshape(-1)
    amount = (100.0 * torch.randn(p, months, generator=g, dtype=torch.float64)
              * torch.exp(-torch.arange(months, dtype=torch.float64) / 600.0)).reshape(-1)
    return tuple(x.to(device=device, dtype=dt) for x in (node_t, node_df, cf_t, amount))


def reference(node_t, node_df, cf_t, amount) -> torch.Tensor:
    nt, ldf, t, a = node_t.double(), torch.log(node_df.double()), cf_t.double(), amount.double()
    m = nt.shape[0]
    i = (torch.searchsorted(nt[1:m - 1].contiguous(), t, right=True)).clamp(0, m - 2)
    t0, t1 = nt[i], nt[i + 1]
    w = (t - t0) / (t1 - t0)
    df = torch.exp(ldf[i] + w * (ldf[i + 1] - ldf[i]))
    return (a * df).to(amount.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["points"] * s["months"]
    return {"bytes": 12 * n, "flops": 30 * n}
