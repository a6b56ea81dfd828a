"""One batched STDP step of a fully connected layer (norse.torch.functional.stdp.stdp_step_linear).

Norse decays and bumps the pre- and postsynaptic traces, then updates the weights w [n_out, n_in]
from the batch-summed coincidences of postsynaptic spikes with presynaptic traces (potentiation)
and of postsynaptic traces with presynaptic spikes (depression), with the soft-bound
"multiplicative_relu" amplitudes and the hard bound:

    t_pre'  = t_pre  + dt * tau_pre_inv  * (-t_pre  + a_pre  * z_pre)      [B, n_in]
    t_post' = t_post + dt * tau_post_inv * (-t_post + a_post * z_post)     [B, n_out]
    P = einsum("bi,bj->ij", z_post, t_pre')     D = einsum("bi,bj->ij", t_post', z_pre)
    w' = clamp(w + eta_plus * relu(w_max - w) * P - eta_minus * relu(w - w_min) * D, w_min, w_max)

Returns (w' [n_out, n_in], t_pre' [B, n_in], t_post' [B, n_out]), all fp32; spikes are 0/1 fp32.
"""
import torch

META = {
    "name": "stdp_step_linear",
    "level": 2,
    "category": "spiking-neural-networks",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-6, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 8, "n_in": 40, "n_out": 48},
        "ragged": {"B": 5, "n_in": 37, "n_out": 29},
        "large": {"B": 128, "n_in": 2312, "n_out": 4096},
    },
    "baseline_notes": "Two launches of an elementwise trace kernel (pre and post, 1024 per program), then a "
                      "2-D grid of 64x64 weight tiles, 4 warps: each program walks the batch in chunks of 32, "
                      "accumulating P and D with two tl.dot (tf32) on the transposed spike/trace tiles, and "
                      "applies the soft-bound update and clamp to its weight tile in the epilogue.",
    "deterministic": True,
}
# Norse STDPParameters defaults (a_pre = a_post = 1, tau = 50 ms, eta = 1e-3, w in [0, 1]), dt = 1 ms.
PARAMS = dict(dt=1e-3, tau_pre_inv=1.0 / 50e-3, tau_post_inv=1.0 / 50e-3, a_pre=1.0, a_post=1.0,
              eta_plus=1e-3, eta_minus=1e-3, w_min=0.0, w_max=1.0)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Spikes z_pre [B, n_in], z_post [B, n_out], weights w [n_out, n_in], traces t_pre, t_post, then
    dt, tau_pre_inv, tau_post_inv, a_pre, a_post, eta_plus, eta_minus, w_min, w_max (floats)."""
    s = META["sizes"][size]
    B, n_in, n_out = s["B"], s["n_in"], s["n_out"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    z_pre = (torch.rand(B, n_in, generator=g) < 0.08).float()    # event-camera input, ~8% per 1 ms bin
    z_post = (torch.rand(B, n_out, generator=g) < 0.04).float()  # hidden LIF layer, ~4% per bin
    w = torch.rand(n_out, n_in, generator=g)
    t_pre = 0.15 * torch.rand(B, n_in, generator=g)
    t_post = 0.08 * torch.rand(B, n_out, generator=g)
    put = lambda a: a.to(device=device, dtype=dt)
    return (put(z_pre), put(z_post), put(w), put(t_pre), put(t_post), *PARAMS.values())


def reference(z_pre, z_post, w, t_pre, t_post, dt, tau_pre_inv, tau_post_inv, a_pre, a_post,
              eta_plus, eta_minus, w_min, w_max) -> tuple:
    t_pre_new = t_pre + dt * tau_pre_inv * (-t_pre + a_pre * z_pre)
    t_post_new = t_post + dt * tau_post_inv * (-t_post + a_post * z_post)
    pot = torch.einsum("bi,bj->ij", z_post.double(), t_pre_new.double())
    dep = torch.einsum("bi,bj->ij", t_post_new.double(), z_pre.double())
    wd = w.double()
    dw = eta_plus * torch.relu(w_max - wd) * pot - eta_minus * torch.relu(wd - w_min) * dep
    w_new = torch.clamp(wd + dw, w_min, w_max)
    return w_new.to(w.dtype), t_pre_new, t_post_new


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, n_in, n_out = s["B"], s["n_in"], s["n_out"]
    return {"bytes": 8 * n_out * n_in + 16 * B * (n_in + n_out), "flops": 4 * B * n_in * n_out + 8 * n_in * n_out}
