"""Exposure profiles and CVA / DVA of one counterparty's netting sets from the NPV cube (ORE post-processing).

ORE's exposure calculator reduces the deflated netting-set NPV cube V[n, i, s] (netting set, exposure date,
Monte Carlo sample; samples contiguous, ORE's in-memory cube layout) to the expected positive and negative
exposure profiles
    EPE[n, i] = (1/S) sum_s max(V[n, i, s], 0),      ENE[n, i] = (1/S) sum_s max(-V[n, i, s], 0),
and the value adjustment calculator integrates them against the default curves on the same date grid:
    CVA[n] = LGD_c * sum_i EPE[n, i] * (S_c(t_{i-1}) - S_c(t_i)),
    DVA[n] = LGD_b * sum_i ENE[n, i] * (S_b(t_{i-1}) - S_b(t_i)),
with S_c / S_b the counterparty's and the bank's survival probabilities at t_0 = today, t_1, .., t_T.
Returns (EPE [N, T], ENE [N, T], CVA [N], DVA [N]), all fp32.
"""
import torch

META = {
    "name": "cva_exposure_profile",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 2, "T": 8, "S": 256},
        "ragged": {"N": 3, "T": 7, "S": 300},
        "large": {"N": 4, "T": 120, "S": 65536},
    },
    "baseline_notes": "Exposure kernel: min(40, N * T) programs (the A2's vector cores) take (netting set, "
                      "date) rows in turn and stream each row's samples in 4,096-wide contiguous tiles, "
                      "keeping positive and negative partial sums in registers; one EPE and one ENE store "
                      "per row. CVA kernel: one program per netting set, a 128-wide dot of the profile "
                      "with the survival-probability increments.",
    "deterministic": True,
}
DT = 0.25        # quarterly exposure grid
LGD_C = 0.6      # counterparty recovery 40%
LGD_B = 0.6      # own recovery 40%
HAZ_C = 0.02     # ~120 bp CDS spread
HAZ_B = 0.009    # ~55 bp CDS spread


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Deflated NPV cube v [N, T, S] (millions), survival curves [T+1] (counterparty, bank), LGDs (floats)."""
    s = META["sizes"][size]
    N, T, S = s["N"], s["T"], s["S"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    t = torch.arange(1, T + 1, dtype=torch.float32) * DT
    # swap-book-like netting sets: diffusive MtM with an amortising profile and a drift per set
    w = torch.randn(N, T, S, generator=g).mul_(DT ** 0.5).cumsum_(dim=1)
    notional = torch.empty(N, 1, 1).uniform_(20.0, 200.0, generator=g)  # millions
    mat = torch.empty(N, 1, 1).uniform_(5.0, 30.0, generator=g)  # longest trade, years
    drift = torch.empty(N, 1, 1).uniform_(-0.004, 0.004, generator=g)
    amort = ((mat - t[None, :, None]).clamp(min=0.0) / mat)
    v = notional * amort * (0.012 * w + drift * t[None, :, None]) * torch.exp(-0.03 * t)[None, :, None]
    tt = torch.arange(T + 1, dtype=torch.float64) * DT
    surv_c = torch.exp(-HAZ_C * tt)
    surv_b = torch.exp(-HAZ_B * tt)
    return (v.to(device=device, dtype=dt), surv_c.to(device=device, dtype=dt),
            surv_b.to(device=device, dtype=dt), LGD_C, LGD_B)


def reference(v: torch.Tensor, surv_c: torch.Tensor, surv_b: torch.Tensor, lgd_c: float, lgd_b: float) -> tuple:
    vd = v.double()
    epe = vd.clamp(min=0.0).mean(dim=2)
    ene = (-vd).clamp(min=0.0).mean(dim=2)
    sc, sb = surv_c.double(), surv_b.double()
    cva = lgd_c * (epe * (sc[:-1] - sc[1:])[None, :]).sum(dim=1)
    dva = lgd_b * (ene * (sb[:-1] - sb[1:])[None, :]).sum(dim=1)
    return epe.to(v.dtype), ene.to(v.dtype), cva.to(v.dtype), dva.to(v.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    N, T, S = s["N"], s["T"], s["S"]
    return {"bytes": 4 * N * T * S + 8 * N * T + 8 * (T + 1) + 8 * N, "flops": 4 * N * T * S}
