"""DC line loading of many injection scenarios through the PTDF matrix (MATPOWER makePTDF / pandapower DC screening).

MATPOWER's makePTDF(baseMVA, bus, branch, slack) returns the nl x nb power-transfer distribution
factors H of the DC model (Bf = diag(1/x) Cft, Bbus = Cft' Bf; H(:, noslack) = Bf(:, noslack) / Bbus(noslack,
noslack), the slack column zero). Time-series and Monte-Carlo screening (pandapower rundcpp over a year of
hourly profiles, probabilistic DC flow) then evaluates the branch flows of S injection snapshots at once,
    Pf[s, l] = sum_b H[l, b] * Pbus[s, b]          (MW)
and the line-loading check loading[s, l] = 100 * |Pf[s, l]| / rate_a[l]   (percent of the MVA rating).
Inputs: Pbus [S, nb] fp32 (MW, slack balances), H [nl, nb] fp32, rate_a [nl] fp32; output loading [S, nl] fp32.
"""
import torch

META = {
    "name": "ptdf_scenario_loading",
    "level": 2,
    "category": "matmul",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.1, "rtol": 2e-3}},
    "sizes": {
        "small": {"S": 6, "nb": 14, "nl": 20},        # IEEE 14-bus
        "ragged": {"S": 7, "nb": 30, "nl": 41},       # IEEE 30-bus
        "large": {"S": 4096, "nb": 2383, "nl": 2896}, # case2383wp (Polish winter peak), 4096 snapshots
    },
    "baseline_notes": "20 programs (one per AI core of the 910B) loop over 128 x 128 output tiles (snapshots x "
                      "branches); the K loop over buses loads a [128, 64] injection tile and a [128, 64] PTDF tile "
                      "(both row-contiguous) and accumulates tl.dot(P, trans(H)) in fp32 on the cube; the epilogue "
                      "divides |Pf| by the rating and stores the loading tile. No autotune.",
    "deterministic": True,
}


def _network(nb: int, nl: int, g: torch.Generator):
    """A meshed synthetic grid: a random spanning tree plus local chords; reactances in p.u."""
    f = torch.empty(nl, dtype=torch.long)
    t = torch.empty(nl, dtype=torch.long)
    for b in range(1, nb):                                   # tree: bus b hangs on an earlier, nearby bus
        f[b - 1] = b
        t[b - 1] = max(0, b - 1 - int(torch.randint(0, 6, (1,), generator=g)))
    for c in range(nb - 1, nl):                              # chords close loops between nearby buses
        a = int(torch.randint(0, nb - 2, (1,), generator=g))
        f[c] = a
        t[c] = min(nb - 1, a + 2 + int(torch.randint(0, 12, (1,), generator=g)))
    x = 0.01 + 0.14 * torch.rand(nl, generator=g, dtype=torch.float64)
    return f, t, x


def _ptdf(nb: int, f, t, x) -> torch.Tensor:
    nl = f.shape[0]
    cft = torch.zeros(nl, nb, dtype=torch.float64)
    cft[torch.arange(nl), f] = 1.0
    cft[torch.arange(nl), t] = -1.0
    bf = cft / x[:, None]
    bbus = cft.t() @ bf
    h = torch.zeros(nl, nb, dtype=torch.float64)
    h[:, 1:] = torch.linalg.solve(bbus[1:, 1:], bf[:, 1:].t()).t()    # slack = bus 0
    return h


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Pbus [S, nb] (MW), H [nl, nb] (PTDF, slack column 0), rate_a [nl] (MW)."""
    s = META["sizes"][size]
    S, nb, nl = s["S"], s["nb"], s["nl"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    f, t, x = _network(nb, nl, g)
    h = _ptdf(nb, f, t, x)
    load = 20.0 + 80.0 * torch.rand(nb, generator=g, dtype=torch.float64)
    gen = torch.where(torch.rand(nb, generator=g) < 0.2, 300.0 * torch.rand(nb, generator=g, dtype=torch.float64), 0.0)
    gen = gen * load.sum() / gen.sum().clamp(min=1.0)
    scale = 1.0 + 0.15 * torch.randn(S, nb, generator=g, dtype=torch.float64)
    pbus = gen[None, :] * (1.0 + 0.1 * torch.randn(S, nb, generator=g, dtype=torch.float64)) - load[None, :] * scale
    pbus[:, 0] -= pbus.sum(dim=1)                                      # the slack balances each snapshot
    base = (h @ (gen - load)).abs()
    spread = ((h * h) @ ((0.15 * load) ** 2 + (0.1 * gen) ** 2)).sqrt()            # flow std over snapshots
    rate = torch.clamp((base + 2.5 * spread) * (1.0 + 0.5 * torch.rand(nl, generator=g, dtype=torch.float64)), min=25.0)
    return pbus.to(dt).to(device), h.to(dt).to(device), rate.to(dt).to(device)


def reference(pbus: torch.Tensor, ptdf: torch.Tensor, rate_a: torch.Tensor) -> torch.Tensor:
    pf = pbus.double() @ ptdf.double().t()
    return (100.0 * pf.abs() / rate_a.double()[None, :]).to(pbus.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    S, nb, nl = s["S"], s["nb"], s["nl"]
    return {"bytes": 4 * (S * nb + nl * nb + nl + S * nl), "flops": 2 * S * nb * nl}
