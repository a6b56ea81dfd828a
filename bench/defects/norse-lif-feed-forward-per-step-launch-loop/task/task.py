"""Norse LIF feed-forward layer integrated over time (norse.torch.functional.lif.lif_feed_forward_integral).

For every time step t the input current x[t] (the output of a lifted Linear applied to all steps at
once) is integrated by the leaky integrate-and-fire neuron with a synaptic current state, Norse's
explicit Euler step with LIFParameters defaults:

    i_jump = i + x[t]
    v_dec  = v + dt * tau_mem_inv * ((v_leak - v) + i_jump)
    i      = i_jump + (-dt * tau_syn_inv) * i_jump
    z[t]   = heaviside(v_dec - v_th)            (H(0) = 0)
    v      = (1 - z[t]) * v_dec + z[t] * v_reset

Returns (spikes z [T, B, N] fp32, final v [B, N], final i [B, N]). The spikes are a threshold of a
recurrence, so the reference is written with the exact fp32 operation order a kernel must follow
(no fused multiply-add) to reproduce every spike bit for bit.
"""
import torch

META = {
    "name": "lif_feed_forward_integral",
    "level": 2,
    "category": "spiking-neural-networks",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"T": 8, "B": 4, "N": 96},
        "ragged": {"T": 7, "B": 3, "N": 77},
        "large": {"T": 100, "B": 256, "N": 1024},
    },
    "baseline_notes": "One launch over cdiv(B*N, 1024) programs of 1024 neurons, 4 warps; each program keeps "
                      "v and i in registers and walks the T steps, loading x[t] and storing z[t] per step; "
                      "launched with enable_fp_fusion=False so the spikes match the unfused reference.",
    "deterministic": True,
}
# Norse LIFParameters defaults (1/s, dimensionless voltages) and its default dt of 1 ms.
DT = 1e-3
TAU_MEM_INV = 1.0 / 1e-2
TAU_SYN_INV = 1.0 / 5e-3
V_LEAK, V_TH, V_RESET = 0.0, 1.0, 0.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Input current x [T, B, N], initial state v0, i0 [B, N] and the LIF constants (floats)."""
    s = META["sizes"][size]
    T, B, N = s["T"], s["B"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = 0.8 * torch.randn(T, B, N, generator=g) + 0.15
    v0 = 0.5 * torch.rand(B, N, generator=g)
    i0 = 0.3 * torch.randn(B, N, generator=g)
    put = lambda a: a.to(device=device, dtype=dt)
    return put(x), put(v0), put(i0), DT, TAU_MEM_INV, TAU_SYN_INV, V_LEAK, V_TH, V_RESET


def reference(x, v0, i0, dt, tau_mem_inv, tau_syn_inv, v_leak, v_th, v_reset) -> tuple:
    a_mem = dt * tau_mem_inv
    c_syn = -dt * tau_syn_inv
    v, i = v0.clone(), i0.clone()
    spikes = []
    for x_t in x:
        i_jump = i + x_t
        dv = a_mem * ((v_leak - v) + i_jump)
        v_dec = v + dv
        di = c_syn * i_jump
        i = i_jump + di
        z = (v_dec - v_th > 0).to(x.dtype)
        v = (1 - z) * v_dec + z * v_reset
        spikes.append(z)
    return torch.stack(spikes), v, i


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["N"]
    return {"bytes": 8 * s["T"] * n + 16 * n, "flops": 9 * s["T"] * n}
