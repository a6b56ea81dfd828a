"""Two-RC Thevenin equivalent-circuit model of many cells under one drive cycle (PyBaMM's
`pybamm.equivalent_circuit.Thevenin` with two RC elements, run as a cell-to-cell variation sweep
the way liionpack / PyBaMM parameter sweeps use it).

Each cell n has its own capacity Q_n [Ah], series resistance R0_n, two RC pairs (R1_n, C1_n),
(R2_n, C2_n) and initial state of charge z0_n; all cells share the open-circuit-voltage table
OCV(z) (K points on a uniform SOC grid, linear interpolation, SOC clamped to [0, 1]) and the pack
current I_t [A] (positive = discharge), sampled every dt seconds. With the exact zero-order-hold
discretisation of the RC branches, for t = 0 .. T-1:

    V[t, n] = OCV(z_n) - v1_n - v2_n - R0_n I_t
    z_n    <- z_n - I_t dt / (3600 Q_n)
    vk_n   <- a_k vk_n + Rk_n (1 - a_k) I_t,    a_k = exp(-dt / (Rk_n Ck_n)),   k = 1, 2

with v1 = v2 = 0 at t = 0. Returns (V [T, N] fp32 terminal voltages, z [N] fp32 final SOC).
"""
import math

import torch

META = {
    "name": "thevenin_ecm_sweep",
    "level": 2,
    "category": "battery-simulation",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 50, "T": 24, "K": 101},
        "ragged": {"N": 77, "T": 13, "K": 101},
        "large": {"N": 8192, "T": 3600, "K": 101},
    },
    "baseline_notes": "One launch over cell blocks of 128 (4 warps); each program loads its cells' parameters "
                      "once, keeps SOC and both RC voltages in registers and loops over all T time steps in the "
                      "kernel, reading the pack current and interpolating the OCV table each step and storing "
                      "one row of terminal voltages per step; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Drive-cycle current [T], per-cell capacity, R0, R1, C1, R2, C2, initial SOC [N], OCV table [K], dt."""
    s = META["sizes"][size]
    n, steps, k = s["N"], s["T"], s["K"]
    g = torch.Generator().manual_seed(seed)
    dt_ = getattr(torch, dtype or META["dtypes"][0])
    t = torch.arange(steps, dtype=torch.float64)
    # a dynamic discharge profile: mean 3 A (about C/1.7 on a 5 Ah cell), accelerations and regen pulses
    pulses = torch.randn(steps // 10 + 1, generator=g, dtype=torch.float64).repeat_interleave(10)[:steps]
    current = 3.0 + 4.0 * torch.sin(2 * math.pi * t / 180.0) + 2.5 * pulses
    cap = 5.0 * (1 + 0.03 * torch.randn(n, generator=g, dtype=torch.float64))
    r0 = 0.015 * (1 + 0.10 * torch.randn(n, generator=g, dtype=torch.float64)).clamp(min=0.5)
    r1 = 0.010 * (1 + 0.10 * torch.randn(n, generator=g, dtype=torch.float64)).clamp(min=0.5)
    c1 = 2000.0 * (1 + 0.10 * torch.randn(n, generator=g, dtype=torch.float64)).clamp(min=0.5)
    r2 = 0.020 * (1 + 0.10 * torch.randn(n, generator=g, dtype=torch.float64)).clamp(min=0.5)
    c2 = 20000.0 * (1 + 0.10 * torch.randn(n, generator=g, dtype=torch.float64)).clamp(min=0.5)
    soc0 = 0.9 + 0.02 * torch.randn(n, generator=g, dtype=torch.float64)
    z = torch.linspace(0.0, 1.0, k, dtype=torch.float64)
    ocv = 3.3 + 0.85 * z - 0.25 * torch.exp(-25.0 * z) + 0.06 * torch.exp(-30.0 * (1.0 - z))
    tensors = [current, cap, r0, r1, c1, r2, c2, soc0, ocv]
    return (*[x.to(device=device, dtype=dt_) for x in tensors], 1.0)


def reference(current, cap, r0, r1, c1, r2, c2, soc0, ocv, dt) -> tuple:
    f = lambda x: x.double()  # noqa: E731
    cur, q, R0, R1, C1, R2, C2, z, tab = map(f, (current, cap, r0, r1, c1, r2, c2, soc0, ocv))
    k = tab.shape[0]
    a1, a2 = torch.exp(-dt / (R1 * C1)), torch.exp(-dt / (R2 * C2))
    v1, v2 = torch.zeros_like(z), torch.zeros_like(z)
    volts = torch.empty(cur.shape[0], z.shape[0], dtype=torch.float64, device=z.device)
    for t in range(cur.shape[0]):
        i_t = cur[t]
        pos = z.clamp(0.0, 1.0) * (k - 1)
        idx = pos.floor().long().clamp(max=k - 2)
        w = pos - idx
        volts[t] = tab[idx] * (1 - w) + tab[idx + 1] * w - v1 - v2 - R0 * i_t
        z = z - i_t * dt / (3600.0 * q)
        v1 = a1 * v1 + R1 * (1 - a1) * i_t
        v2 = a2 * v2 + R2 * (1 - a2) * i_t
    return volts.to(current.dtype), z.to(current.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n, steps = s["N"], s["T"]
    return {"bytes": 4 * (steps + 8 * n + s["K"] + steps * n + n), "flops": 20 * n * steps}
