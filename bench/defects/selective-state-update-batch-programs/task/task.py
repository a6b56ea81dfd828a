"""Mamba-2 decode step (mamba_ssm selective_state_update, ngroups = 1): dt = softplus(dt + dt_bias), state' = exp(A dt) state + dt x B^T, y = state' C + D x; returns y and the new state."""
import torch
import torch.nn.functional as F

META = {
    "name": "selective_state_update",
    "level": 2,
    "category": "fused",
    "dtypes": ["bfloat16", "float16", "float32"],
    "tolerance": {"bfloat16": {"atol": 3e-2, "rtol": 2e-2}, "float16": {"atol": 1e-2, "rtol": 1e-2},
                  "float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "H": 3, "P": 16, "N": 16},
        "ragged": {"B": 5, "H": 24, "P": 48, "N": 64},
        "large": {"B": 16, "H": 80, "P": 64, "N": 128},
    },
    "baseline_notes": "Grid (headdim block of 16, batch, head) as in mamba_ssm: each program updates a [16, N] "
                      "fp32 state tile and writes 16 outputs; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """state [B, H, P, N] (fp32), x [B, H, P], dt [B, H] (fp32), dt_bias, A (negative), D [H] (fp32), B and C [B, N]."""
    s = META["sizes"][size]
    dt_ = getattr(torch, dtype or META["dtypes"][0])
    g = torch.Generator().manual_seed(seed)
    b, h, p, n = s["B"], s["H"], s["P"], s["N"]
    state = torch.randn(b, h, p, n, generator=g)
    x = torch.randn(b, h, p, generator=g).to(dt_)
    dt = torch.randn(b, h, generator=g) - 1.0
    dt_bias = 0.5 * torch.randn(h, generator=g)
    A = -torch.exp(torch.rand(h, generator=g) * 2.0)
    D = torch.randn(h, generator=g)
    Bm = torch.randn(b, n, generator=g).to(dt_)
    Cm = torch.randn(b, n, generator=g).to(dt_)
    return tuple(t.to(device) for t in (state, x, dt, dt_bias, A, D, Bm, Cm))


def reference(state, x, dt, dt_bias, A, D, Bm, Cm):
    dt = F.softplus(dt + dt_bias)                                   # [B, H]
    dA = torch.exp(A[None, :] * dt)                                 # [B, H]
    xf = x.float()
    new_state = state * dA[:, :, None, None] + (dt[:, :, None] * xf)[..., None] * Bm.float()[:, None, None, :]
    y = (new_state * Cm.float()[:, None, None, :]).sum(-1) + D[None, :, None] * xf
    return y.to(x.dtype), new_state


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["H"] * s["P"] * s["N"]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 8 * n + 2 * s["B"] * s["H"] * s["P"] * item, "flops": 5 * n}
