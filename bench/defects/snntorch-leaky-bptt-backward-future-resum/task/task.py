"""Surrogate-gradient backward through time of an snnTorch Leaky layer (BPTT over the unrolled steps).

snnTorch's Leaky neuron (reset_mechanism="subtract") runs

    R_t = H(U_{t-1} - thr)   (detached)
    U_t = beta * U_{t-1} + X_t - R_t * thr
    S_t = H(U_t - thr)       forward; backward the ATan surrogate
          dS/dU = (alpha / 2) / (1 + (pi / 2 * alpha * (U_t - thr))^2)

Because the reset is detached, the gradient reaching the input current obeys the reverse linear
recurrence

    G_t = dL/dS_t * dS/dU(U_t) + beta * G_{t+1},   G_T = 0,   dL/dX_t = G_t

Inputs: the membrane trace U [T, B, N] saved by the forward, the incoming gradient dL/dS [T, B, N],
beta, threshold and the surrogate's alpha. Returns dL/dX [T, B, N] fp32.
"""
import math

import torch

META = {
    "name": "leaky_bptt_input_grad",
    "level": 2,
    "category": "spiking-neural-networks",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-4}},
    "sizes": {
        "small": {"T": 6, "B": 4, "N": 64},
        "ragged": {"T": 5, "B": 3, "N": 45},
        "large": {"T": 100, "B": 128, "N": 2048},
    },
    "baseline_notes": "Grid cdiv(B*N, 1024) programs of 1024 neurons, 4 warps; each program walks the time "
                      "steps backwards once, carrying G in registers: per step one load of U[t] and of "
                      "dL/dS[t], the ATan surrogate, G = a + beta * G and one store of dL/dX[t].",
    "deterministic": True,
}
BETA, THRESHOLD, ALPHA = 0.95, 1.0, 2.0  # snnTorch tutorial beta, default threshold and ATan alpha


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Membrane trace U [T, B, N], gradient w.r.t. the spikes [T, B, N], beta, threshold, alpha."""
    s = META["sizes"][size]
    T, B, N = s["T"], s["B"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    mem = 0.6 + 0.5 * torch.randn(T, B, N, generator=g)
    grad_spk = 0.01 * torch.randn(T, B, N, generator=g)
    put = lambda a: a.to(device=device, dtype=dt)
    return put(mem), put(grad_spk), BETA, THRESHOLD, ALPHA


def reference(mem: torch.Tensor, grad_spk: torch.Tensor, beta: float, threshold: float, alpha: float):
    surrogate = (alpha / 2) / (1 + (math.pi / 2 * alpha * (mem - threshold)) ** 2)
    local = grad_spk * surrogate
    grad_x = torch.empty_like(mem)
    carry = torch.zeros_like(mem[0])
    for t in range(mem.shape[0] - 1, -1, -1):
        carry = local[t] + beta * carry
        grad_x[t] = carry
    return grad_x


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["T"] * s["B"] * s["N"]
    return {"bytes": 12 * n, "flops": 9 * n}
