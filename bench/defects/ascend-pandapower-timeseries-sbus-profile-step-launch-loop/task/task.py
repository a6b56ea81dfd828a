"""Specified bus injections of a quasi-static time-series power flow (pandapower run_timeseries with ConstControl
profiles, then makeSbus), built for every time step at once for a batched solver.

Each bus b aggregates its loads (p_load_b MW, q_load_b Mvar, scaled by the profile of its load class
cls_b, e.g. residential / commercial / industrial / agricultural) and its rooftop PV static generators
(p_sgen_b MW at unity power factor, scaled by the PV profile). For time step t, in per unit on base_mva:
    P[t, b] = (p_sgen_b * pv_prof[t] - p_load_b * load_prof[cls_b, t]) / base_mva
    Q[t, b] = -q_load_b * load_prof[cls_b, t] / base_mva
Returns (P, Q), fp32 [T, nbus] each.
"""
import torch

META = {
    "name": "timeseries_bus_injections",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"T": 24, "nbus": 37, "classes": 4},
        "ragged": {"T": 31, "nbus": 601, "classes": 4},
        "large": {"T": 8760, "nbus": 2000, "classes": 4},
    },
    "baseline_notes": "One launch: 40 programs (the A2's vector cores) loop over [8 steps x 512 buses] tiles "
                      "of the output; per tile the bus data and class ids are loaded once, the class profile "
                      "is selected with tl.where over the (constexpr) classes, and P and Q are stored with the "
                      "bus axis contiguous. No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """p_load, q_load, p_sgen [nbus] (MW / Mvar), cls [nbus] int32, load_prof [C, T], pv_prof [T], base_mva."""
    s = META["sizes"][size]
    T, nb, C = s["T"], s["nbus"], s["classes"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    has_load = torch.rand(nb, generator=g) < 0.8
    p_load = torch.where(has_load, 5.0 + 95.0 * torch.rand(nb, generator=g), torch.zeros(nb))
    q_load = p_load * (0.1 + 0.4 * torch.rand(nb, generator=g))
    p_sgen = torch.where(torch.rand(nb, generator=g) < 0.35, 20.0 * torch.rand(nb, generator=g), torch.zeros(nb))
    cls = torch.randint(0, C, (nb,), generator=g, dtype=torch.int32)
    hour = torch.arange(T, dtype=torch.float32)
    day = 2 * torch.pi * (hour % 24) / 24.0
    season = 2 * torch.pi * hour / 8760.0
    peaks = torch.tensor([19.0, 13.0, 11.0, 15.0])[:C] if C <= 4 else 8.0 + 12.0 * torch.rand(C, generator=g)
    load_prof = (0.6 + 0.25 * torch.cos(day[None, :] - 2 * torch.pi * peaks[:, None] / 24.0)
                 + 0.1 * torch.cos(season)[None, :] + 0.05 * torch.rand(C, T, generator=g))
    pv_prof = torch.clamp(torch.sin(day - torch.pi / 2), min=0.0) * (0.75 + 0.2 * torch.cos(season - torch.pi)) \
        * (0.6 + 0.4 * torch.rand(T, generator=g))
    base_mva = 100.0
    return (p_load.to(dt).to(device), q_load.to(dt).to(device), p_sgen.to(dt).to(device), cls.to(device),
            load_prof.to(dt).contiguous().to(device), pv_prof.to(dt).to(device), base_mva)


def reference(p_load, q_load, p_sgen, cls, load_prof, pv_prof, base_mva) -> tuple:
    mult = load_prof.double()[cls.long(), :].T                   # [T, nbus]
    P = (p_sgen.double()[None, :] * pv_prof.double()[:, None] - p_load.double()[None, :] * mult) / base_mva
    Q = -q_load.double()[None, :] * mult / base_mva
    return P.to(p_load.dtype), Q.to(p_load.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    T, nb, C = s["T"], s["nbus"], s["classes"]
    return {"bytes": 8 * T * nb + 16 * nb + 4 * (C + 1) * T, "flops": 5 * T * nb}
