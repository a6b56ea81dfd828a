"""Mitchell-Schaeffer ionic update with reaction sub-stepping (openCARP IMP MitchellSchaeffer, LIMPET form).

Operator splitting of the monodomain equation: within one PDE step the stiff reaction part is
advanced by n_sub ionic sub-steps of dt on every mesh node, before the parabolic solve. With the
normalised potential U = (Vm - V_min) / (V_max - V_min) one sub-step is

    J_in  = h U^2 (1 - U) / tau_in,   J_out = -U / tau_out
    h     <- 1 - (1 - h) exp(-dt / tau_open)   if U < V_gate   (Rush-Larsen, gate opens)
             h exp(-dt / tau_close)            otherwise       (gate closes)
    Vm    <- Vm + dt ((J_in + J_out) (V_max - V_min) + I_stim)

where J_in uses the gate before its update (openCARP evaluates Iion with the current state, then
updates the state). Returns (Vm, h) after n_sub sub-steps, both fp32 [N].
"""
import math

import torch

META = {
    "name": "mitchell_schaeffer_substeps",
    "level": 2,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 1000, "n_sub": 10},
        "ragged": {"N": 1237, "n_sub": 7},
        "large": {"N": 5_000_000, "n_sub": 10},
    },
    "baseline_notes": "One launch over the nodes (1024 per program, 4 warps): Vm, h and the stimulus are "
                      "loaded once, the n_sub Rush-Larsen / forward-Euler sub-steps run in registers and "
                      "Vm and h are stored once. Decay factors exp(-dt/tau) come from the host.",
    "deterministic": True,
}

# openCARP MitchellSchaeffer defaults (ms, mV)
V_MIN = -86.2
V_MAX = 40.0
V_GATE = 0.13
TAU_IN = 0.3
TAU_OUT = 6.0
TAU_OPEN = 120.0
TAU_CLOSE = 150.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Vm [N] (mV), h [N], I_stim [N] (mV/ms, a stimulated patch), ionic dt (ms) and n_sub."""
    s = META["sizes"][size]
    n = s["N"]
    g = torch.Generator().manual_seed(seed)
    dt_ = getattr(torch, dtype or META["dtypes"][0])
    # a mid-beat snapshot: ~30 % of the tissue excited or repolarising, the rest at rest
    phase = torch.rand(n, generator=g)
    excited = phase < 0.3
    u = torch.where(excited, 0.15 + 0.85 * torch.rand(n, generator=g), 0.02 * torch.rand(n, generator=g))
    vm = V_MIN + (V_MAX - V_MIN) * u
    h = torch.where(excited, 0.6 * torch.rand(n, generator=g), 0.7 + 0.3 * torch.rand(n, generator=g))
    istim = torch.where(torch.rand(n, generator=g) < 0.05, torch.full((n,), 50.0), torch.zeros(n))
    return (vm.to(dt_).to(device), h.to(dt_).to(device), istim.to(dt_).to(device), 0.01, s["n_sub"])


def reference(vm: torch.Tensor, h: torch.Tensor, istim: torch.Tensor, dt: float, n_sub: int) -> tuple:
    v, g, stim = vm.double(), h.double(), istim.double()
    span = V_MAX - V_MIN
    open_decay, close_decay = math.exp(-dt / TAU_OPEN), math.exp(-dt / TAU_CLOSE)
    for _ in range(n_sub):
        u = (v - V_MIN) / span
        j_in = g * u * u * (1.0 - u) / TAU_IN
        j_out = -u / TAU_OUT
        g = torch.where(u < V_GATE, 1.0 - (1.0 - g) * open_decay, g * close_decay)
        v = v + dt * ((j_in + j_out) * span + stim)
    return v.to(vm.dtype), g.to(h.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 20 * s["N"], "flops": 16 * s["N"] * s["n_sub"]}
