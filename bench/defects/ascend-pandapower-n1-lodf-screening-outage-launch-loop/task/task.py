"""N-1 line-outage screening with line outage distribution factors (pandapower contingency / MATPOWER makeLODF).

pandapower.contingency.run_contingency walks the N-1 cases one by one and records, per case, the
post-outage line loadings; its DC fast path (and MATPOWER's makeLODF screening) replaces the power
flow of each case by the LODF update of the base-case DC flows:
    Pf_post[k, l] = Pf0[l] + LODF[l, c_k] * Pf0[c_k],      c_k = the branch taken out in case k
    loading[k, l] = 100 * |Pf_post[k, l]| / rate_a[l]
with LODF[l, c] = PTDF_br[l, c] / (1 - PTDF_br[c, c]) and LODF[c, c] = -1 (bridges, whose outage islands
the grid, are not screened). Per case the screening keeps the worst post-outage loading (percent) and
the number of overloaded branches (loading > 100 %).
Inputs: lodf_t [n_out, nl] fp32 (row k = LODF[:, c_k], outage-major), outage [n_out] int32 (c_k),
pf0 [nl] fp32 (MW), rate_a [nl] fp32 (MW). Outputs: worst [n_out] fp32, n_over [n_out] int32.
"""
import torch

META = {
    "name": "lodf_n1_screening",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-5}},
    "sizes": {
        "small": {"nb": 14, "nl": 20},        # IEEE 14-bus
        "ragged": {"nb": 30, "nl": 41},       # IEEE 30-bus
        "large": {"nb": 2383, "nl": 2896},    # case2383wp (Polish winter peak), all non-bridge outages
    },
    "baseline_notes": "One launch of 40 programs (the 910B's vector cores); each program loops over its share "
                      "of the outage cases and streams the case's LODF row in 1024-branch chunks (pf0 and "
                      "rate_a chunks alongside), keeping a running max and overload count, and stores one "
                      "value per case. No autotune.",
    "deterministic": True,
}


def _network(nb: int, nl: int, g: torch.Generator):
    """A meshed synthetic grid: a random spanning tree plus local chords; reactances in p.u."""
    f = torch.empty(nl, dtype=torch.long)
    t = torch.empty(nl, dtype=torch.long)
    hang = torch.randint(0, 6, (nb,), generator=g)
    for b in range(1, nb):
        f[b - 1] = b
        t[b - 1] = max(0, b - 1 - int(hang[b]))
    a = torch.randint(0, max(1, nb - 2), (nl,), generator=g)
    span = torch.randint(2, 14, (nl,), generator=g)
    for c in range(nb - 1, nl):
        f[c] = int(a[c])
        t[c] = min(nb - 1, int(a[c]) + int(span[c]))
    x = 0.01 + 0.14 * torch.rand(nl, generator=g, dtype=torch.float64)
    return f, t, x


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """lodf_t [n_out, nl], outage [n_out] int32, pf0 [nl] (MW), rate_a [nl] (MW)."""
    s = META["sizes"][size]
    nb, nl = s["nb"], s["nl"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    f, t, x = _network(nb, nl, g)
    cft = torch.zeros(nl, nb, dtype=torch.float64)
    cft[torch.arange(nl), f] = 1.0
    cft[torch.arange(nl), t] = -1.0
    bf = cft / x[:, None]
    bbus = cft.t() @ bf
    h = torch.zeros(nl, nb, dtype=torch.float64)
    h[:, 1:] = torch.linalg.solve(bbus[1:, 1:], bf[:, 1:].t()).t()          # PTDF, slack = bus 0
    ptdf_br = h @ cft.t()                                                   # [nl monitored, nl transfers]
    denom = 1.0 - torch.diagonal(ptdf_br)
    outage = torch.nonzero(denom > 1e-6).flatten()                          # bridges are not screened
    lodf = ptdf_br[:, outage] / denom[outage][None, :]
    lodf[outage, torch.arange(outage.numel())] = -1.0
    load = 20.0 + 80.0 * torch.rand(nb, generator=g, dtype=torch.float64)
    gen = torch.where(torch.rand(nb, generator=g) < 0.2, 300.0 * torch.rand(nb, generator=g, dtype=torch.float64), 0.0)
    pbus = gen * load.sum() / gen.sum().clamp(min=1.0) - load
    pf0 = h @ pbus
    n1_max = (pf0[:, None] + lodf * pf0[outage][None, :]).abs().max(dim=1).values   # planned for N-1, mostly
    rate = torch.clamp(torch.maximum(1.3 * pf0.abs(), n1_max * (0.85 + 0.5 * torch.rand(nl, generator=g, dtype=torch.float64))),
                       min=25.0)
    return (lodf.t().contiguous().to(dt).to(device), outage.to(torch.int32).to(device),
            pf0.to(dt).to(device), rate.to(dt).to(device))


def reference(lodf_t: torch.Tensor, outage: torch.Tensor, pf0: torch.Tensor, rate_a: torch.Tensor) -> tuple:
    post = pf0[None, :] + lodf_t * pf0[outage.long()][:, None]
    loading = 100.0 * post.abs() / rate_a[None, :]
    return loading.max(dim=1).values, (loading > 100.0).sum(dim=1).to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    nl = s["nl"]
    return {"bytes": 4 * nl * nl + 16 * nl, "flops": 5 * nl * nl}
