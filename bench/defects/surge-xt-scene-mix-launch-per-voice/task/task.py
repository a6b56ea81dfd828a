"""Scene voice mix of a polyphonic synth (Surge XT's per-scene voice loop into the scene's stereo bus).

Each active voice v delivers its mono post-filter output voice_out[v, :]. Surge computes the amp envelope
at control rate, once per block of 32 samples, and ramps linearly across the block, so the voice's
per-sample gain is amp_eg[v, k] + (amp_eg[v, k + 1] - amp_eg[v, k]) * j / 32 for sample t = 32 k + j.
The voice is scaled by its velocity level and placed with a constant-power pan law
(theta = (pan + 1) * pi / 4, left gain cos(theta), right gain sin(theta)), and all voices are summed into
the scene's stereo bus:

    bus[0, t] = sum_v level[v] cos(theta_v) env_v(t) voice_out[v, t]
    bus[1, t] = sum_v level[v] sin(theta_v) env_v(t) voice_out[v, t]

Inputs: voice_out [V, T] fp32, amp_eg [V, cdiv(T, 32) + 1] fp32, level [V] fp32, pan [V] fp32 in [-1, 1].
Returns bus [2, T] fp32.
"""
import math

import torch

META = {
    "name": "scene_voice_mix",
    "level": 1,
    "category": "audio-mix",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"V": 5, "T": 300},
        "ragged": {"V": 7, "T": 1001},
        "large": {"V": 64, "T": 16384},
    },
    "baseline_notes": "One launch over time tiles of 128 samples; each program walks the voices, interpolates the "
                      "block-rate amp envelope, applies level and constant-power pan, keeps the left and right "
                      "sums in registers and stores its bus tile once. 4 warps, no autotune.",
    "deterministic": True,
}
EG_BLOCK = 32          # Surge's BLOCK_SIZE: control-rate envelope step
SAMPLE_RATE = 48000.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Voice outputs [V, T], block-rate amp envelope [V, cdiv(T, 32) + 1], velocity level [V], pan [V]."""
    s = META["sizes"][size]
    V, T = s["V"], s["T"]
    nb = (T + EG_BLOCK - 1) // EG_BLOCK + 1
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    t = torch.arange(T, dtype=torch.float64) / SAMPLE_RATE
    notes = torch.randint(36, 96, (V, 1), generator=g).double()
    freq = 440.0 * torch.pow(2.0, (notes - 69.0) / 12.0)
    start = torch.rand(V, 1, generator=g, dtype=torch.float64)
    voice_out = 0.7 * torch.sin(2.0 * math.pi * (freq * t[None, :] + start))
    voice_out += 0.05 * torch.randn(V, T, generator=g, dtype=torch.float64)
    # ADSR-shaped envelopes sampled once per 32-sample block: attack, decay to sustain, release partway
    tb = torch.arange(nb, dtype=torch.float64) * EG_BLOCK / SAMPLE_RATE
    onset = -0.2 * torch.rand(V, 1, generator=g, dtype=torch.float64)      # voices started earlier
    att = 0.005 + 0.05 * torch.rand(V, 1, generator=g, dtype=torch.float64)
    dec = 0.05 + 0.3 * torch.rand(V, 1, generator=g, dtype=torch.float64)
    sus = 0.3 + 0.6 * torch.rand(V, 1, generator=g, dtype=torch.float64)
    rel_at = tb[-1] * (0.3 + 0.9 * torch.rand(V, 1, generator=g, dtype=torch.float64))
    age = tb[None, :] - onset
    env = torch.where(age < att, age / att, sus + (1.0 - sus) * torch.exp(-(age - att) / dec))
    env = torch.where(tb[None, :] > rel_at, env * torch.exp(-(tb[None, :] - rel_at) / 0.08), env)
    level = 0.2 + 0.8 * torch.rand(V, generator=g, dtype=torch.float64)
    pan = 2.0 * torch.rand(V, generator=g, dtype=torch.float64) - 1.0
    return tuple(a.to(dt).to(device) for a in (voice_out, env, level, pan))


def reference(voice_out: torch.Tensor, amp_eg: torch.Tensor, level: torch.Tensor, pan: torch.Tensor) -> torch.Tensor:
    V, T = voice_out.shape
    t = torch.arange(T, device=voice_out.device)
    k, frac = t // EG_BLOCK, (t % EG_BLOCK).double() / EG_BLOCK
    eg = amp_eg.double()
    env = eg[:, k] + (eg[:, k + 1] - eg[:, k]) * frac[None, :]
    theta = (pan.double() + 1.0) * (math.pi / 4.0)
    gains = torch.stack([torch.cos(theta), torch.sin(theta)]) * level.double()[None, :]   # [2, V]
    bus = gains @ (env * voice_out.double())
    return bus.to(voice_out.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    V, T = s["V"], s["T"]
    return {"bytes": 4 * V * T + 4 * V * (T // EG_BLOCK + 2) + 8 * T, "flops": 8 * V * T}
