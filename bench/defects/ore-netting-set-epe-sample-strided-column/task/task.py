"""Expected positive exposure profile per netting set (ORE post-processing: EPE(t) = E[max(NPV(t), 0)]).

The NPV cube comes from the scenario simulation with numeraire-deflated netting-set values written path by
path: cube[n, s, d] is netting set n, Monte Carlo sample s, exposure date d (dates contiguous).
EPE[n, d] = mean over samples s of max(cube[n, s, d], 0).
"""
import torch

META = {
    "name": "netting_set_epe_profile",
    "level": 1,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 3, "S": 64, "D": 12},
        "ragged": {"N": 5, "S": 77, "D": 19},
        "large": {"N": 512, "S": 8192, "D": 128},
    },
    "baseline_notes": "Grid (netting set, 32-date block): each program loads [64 samples, 32 dates] tiles with the "
                      "dates contiguous, accumulates max(v, 0) in registers and reduces over samples once at the "
                      "end; 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """cube [N, S, D]: per netting set a drifting mark-to-market whose spread grows like sqrt(t)."""
    s = META["sizes"][size]
    n, m, d = s["N"], s["S"], s["D"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    t = torch.linspace(0.25, 30.0, d)
    mtm0 = torch.randn(n, 1, 1, generator=g) * 0.5
    drift = torch.randn(n, 1, 1, generator=g) * 0.02
    spread = 0.1 + torch.rand(n, 1, 1, generator=g) * 0.4
    cube = torch.randn(n, m, d, generator=g)
    cube.mul_(spread * t.sqrt()).add_(mtm0 + drift * t)
    return (cube.to(dt).to(device),)


def reference(cube: torch.Tensor) -> torch.Tensor:
    return cube.double().clamp(min=0.0).mean(dim=1).to(cube.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["N"] * s["S"] * s["D"] + 4 * s["N"] * s["D"], "flops": 2 * s["N"] * s["S"] * s["D"]}
