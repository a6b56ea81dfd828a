"""One simulation step of a NEST aeif_psc_exp population (adaptive exponential integrate-and-fire, Brette &
Gerstner 2005, exponentially decaying synaptic currents), integrated on the GPU.

State per neuron: V_m (mV), adaptation current w (pA), synaptic currents I_ex, I_in (pA). NEST's right-hand
side (aeif_psc_exp.cpp, aeif_psc_exp_dynamics), with V clamped to V_peak inside the derivative:
    C_m dV/dt  = -g_L (V - E_L) + g_L Delta_T exp((V - V_th) / Delta_T) + I_ex - I_in - w + I_e + I_stim
    tau_w dw/dt = a (V - E_L) - w
    dI_ex/dt = -I_ex / tau_syn_ex,   dI_in/dt = -I_in / tau_syn_in
NEST integrates one resolution step (0.1 ms) with GSL's adaptive RKF45; like GPU ports of the model, this
task uses N_SUB = 10 classical RK4 sub-steps of h = 0.01 ms. After every sub-step a neuron with
V >= V_peak spikes: V = V_reset, w += b (t_ref = 0, NEST's default, so no refractory clamp). After the
step the spike input that arrived for it is added (I_ex += spk_ex, I_in += spk_in) as NEST's update() does.
Returns (V, w, I_ex, I_in) fp32 and the number of spikes each neuron emitted in the step (int32).
"""
import torch

META = {
    "name": "aeif_psc_exp_step",
    "level": 2,
    "category": "ode-integration",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"N": 1000},
        "ragged": {"N": 1237},
        "large": {"N": 4194304},
    },
    "baseline_notes": "One program per 256 neurons (4 warps): load the fp32 state, run the 10 RK4 sub-steps "
                      "in fp32 registers (tl.exp lowers to ex2.approx), spike/reset after each sub-step, add "
                      "the step's spike input and store; model constants are passed as precomputed "
                      "reciprocals so the loop has no divisions. No autotune.",
    "deterministic": True,
}

# NEST aeif_psc_exp defaults (pF, nS, mV, ms, pA).
PARAMS = {
    "C_m": 281.0, "g_L": 30.0, "E_L": -70.6, "Delta_T": 2.0, "V_th": -50.4, "V_peak": 0.0,
    "V_reset": -60.0, "a": 4.0, "b": 80.5, "tau_w": 144.0, "tau_syn_ex": 0.2, "tau_syn_in": 2.0,
    "I_e": 0.0,
}
H = 0.01     # RK4 sub-step, ms
N_SUB = 10   # sub-steps per 0.1 ms resolution step


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """V, w, I_ex, I_in (state), spk_ex, spk_in (summed spike weights arriving this step, pA), I_stim (pA)."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    V = -70.0 + 23.0 * torch.rand(n, generator=g)                       # -70 .. -47 mV
    hot = torch.rand(n, generator=g) < 0.002
    V = torch.where(hot, -30.0 + 25.0 * torch.rand(n, generator=g), V)  # 0.2 % past take-off: spike now
    w = 150.0 * torch.rand(n, generator=g)
    I_ex = 400.0 * torch.rand(n, generator=g) ** 2
    I_in = 300.0 * torch.rand(n, generator=g) ** 2
    n_ex = torch.poisson(torch.full((n,), 0.4), generator=g)           # 87.8 pA per exc. spike (Potjans weight)
    n_in = torch.poisson(torch.full((n,), 0.1), generator=g)
    spk_ex = 87.8 * n_ex
    spk_in = 351.2 * n_in
    I_stim = 200.0 + 500.0 * torch.rand(n, generator=g)
    return tuple(x.to(device=device, dtype=dt) for x in (V, w, I_ex, I_in, spk_ex, spk_in, I_stim))


def reference(V, w, I_ex, I_in, spk_ex, spk_in, I_stim) -> tuple:
    p = PARAMS
    V, w, I_ex, I_in = (x.double() for x in (V, w, I_ex, I_in))
    stim = I_stim.double()

    def rhs(V, w, ex, inh):
        Vc = torch.clamp(V, max=p["V_peak"])
        I_spike = p["g_L"] * p["Delta_T"] * torch.exp((Vc - p["V_th"]) / p["Delta_T"])
        dV = (-p["g_L"] * (Vc - p["E_L"]) + I_spike + ex - inh - w + p["I_e"] + stim) / p["C_m"]
        dw = (p["a"] * (Vc - p["E_L"]) - w) / p["tau_w"]
        return dV, dw, -ex / p["tau_syn_ex"], -inh / p["tau_syn_in"]

    count = torch.zeros_like(V, dtype=torch.int32)
    y = [V, w, I_ex, I_in]
    for _ in range(N_SUB):
        k1 = rhs(*y)
        k2 = rhs(*[s + 0.5 * H * k for s, k in zip(y, k1)])
        k3 = rhs(*[s + 0.5 * H * k for s, k in zip(y, k2)])
        k4 = rhs(*[s + H * k for s, k in zip(y, k3)])
        y = [s + H / 6.0 * (a + 2.0 * b + 2.0 * c + d) for s, a, b, c, d in zip(y, k1, k2, k3, k4)]
        spiked = y[0] >= p["V_peak"]
        y[0] = torch.where(spiked, torch.full_like(y[0], p["V_reset"]), y[0])
        y[1] = torch.where(spiked, y[1] + p["b"], y[1])
        count += spiked.to(torch.int32)
    y[2] = y[2] + spk_ex.double()
    y[3] = y[3] + spk_in.double()
    return tuple(s.to(torch.float32) for s in y) + (count,)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    # 7 fp32 inputs + 5 outputs; ~90 flops and 4 exp per RK4 sub-step
    return {"bytes": 48 * n, "flops": N_SUB * (90 + 4 * 8) * n}
