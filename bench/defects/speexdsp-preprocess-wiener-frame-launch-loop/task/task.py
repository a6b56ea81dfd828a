"""SpeexDSP preprocessor noise estimate and Wiener gain (speex_preprocess_run, float build), per bin.

A batch of S independent streams, T frames each, N = frame_size power-spectrum bins (ps = |X|^2 of
the analysis FFT, 16-bit sample scale). Every bin carries state from frame to frame, as in
update_noise_prob() and speex_preprocess_run():

  S     = 0.8 S + 0.05 ps[i-1] + 0.1 ps[i] + 0.05 ps[i+1]     (0.8 S + 0.2 ps at the two edge bins)
  Smin, Stmp: minimum tracking; every min_range frames (15 / 50 / 150 / 300 by nb_adapt) Smin =
        min(Stmp, S), Stmp = S, else Smin = min(Smin, S), Stmp = min(Stmp, S)
  u     = clamp(1 - Smin / (0.4 S), 0, 1)        (soft form of Speex's update_prob = 0.4 S > Smin)
  noise = (1-b) noise + b min(ps, noise) + b (1-u) max(ps - noise, 0),  b = max(0.03, 1/nb_adapt)
          (Speex: noise follows ps when update_prob is 0 or ps < noise)
  post  = min(ps / (1 + noise) - 1, 100)
  gamma = 0.1 + 0.89 (old_ps / (old_ps + 1 + noise))^2
  prior = min(gamma max(post, 0) + (1 - gamma) old_ps / (1 + noise), 100)
  gw    = prior / (1 + prior)                     (Wiener gain)
  gain  = min(max(gw, sqrt(noise_floor noise / (1 + ps))), 1),  noise_floor = 10^(-15/10)
  old_ps = 0.2 old_ps + 0.8 gw^2 ps               (old_ps = ps on the first frame)

Initial state: noise = 1, S = Smin = Stmp = 0, nb_adapt = min_count = 0 (speex_preprocess_state_init).
Returns (gain [S, T, N] fp32, final noise estimate [S, N] fp32).
"""
import math

import torch

META = {
    "name": "speex_noise_wiener_gain",
    "level": 2,
    "category": "speech_enhancement",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-3}},
    "sizes": {
        "small": {"S": 3, "T": 40, "N": 40},
        "ragged": {"S": 2, "T": 37, "N": 53},
        "large": {"S": 256, "T": 1000, "N": 160},
    },
    "baseline_notes": "One launch over (stream, block of 32 bins) programs, 1 warp each; every program walks "
                      "the T frames in order and keeps S, Smin, Stmp, noise and old_ps of its bins in registers, "
                      "reading ps (with its two neighbour bins) and writing the gain once per frame; the final "
                      "noise estimate is stored after the loop.",
    "deterministic": True,
}
NOISE_FLOOR_DB = -15.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Power spectra ps [S, T, N]: coloured stationary noise per stream plus voiced bursts (harmonic combs)."""
    s = META["sizes"][size]
    n_s, n_t, n = s["S"], s["T"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    f = torch.arange(n, dtype=torch.float32)
    level = 10.0 ** (2.0 * torch.rand(n_s, 1, generator=g) - 1.0)
    noise_psd = (1e5 / (1.0 + f / 16.0))[None, :] * level
    noise = noise_psd[:, None, :] * -torch.log(torch.rand(n_s, n_t, n, generator=g).clamp_min(1e-12))
    f0 = 4.0 + 8.0 * torch.rand(n_s, 1, 1, generator=g)
    comb = torch.cos(2.0 * math.pi * f[None, None, :] / f0).clamp(min=0.0) ** 4
    period = 40.0 + 40.0 * torch.rand(n_s, 1, 1, generator=g)
    voiced = (torch.sin(2.0 * math.pi * torch.arange(n_t, dtype=torch.float32)[None, :, None] / period) > 0.2).float()
    speech = 30.0 * noise_psd[:, None, :] * comb * voiced * -torch.log(torch.rand(n_s, n_t, n, generator=g).clamp_min(1e-12))
    return ((noise + speech).to(device=device, dtype=dt),)


def min_range(nb_adapt: int) -> int:
    return 15 if nb_adapt < 100 else 50 if nb_adapt < 1000 else 150 if nb_adapt < 10000 else 300


def reference(ps: torch.Tensor) -> tuple:
    p_all = ps.double()
    n_s, n_t, n = p_all.shape
    noise = torch.ones(n_s, n, dtype=torch.float64, device=ps.device)
    smooth = torch.zeros_like(noise)
    smin = torch.zeros_like(noise)
    stmp = torch.zeros_like(noise)
    old_ps = torch.zeros_like(noise)
    gain = torch.empty_like(p_all)
    floor = 10.0 ** (NOISE_FLOOR_DB / 10.0)
    min_count = 0
    for t in range(n_t):
        nb_adapt = min(t + 1, 20000)
        min_count += 1
        beta = max(0.03, 1.0 / nb_adapt)
        p = p_all[:, t]
        local = 0.1 * p
        local[:, 1:-1] += 0.05 * (p[:, :-2] + p[:, 2:])
        local[:, 0] = 0.2 * p[:, 0]
        local[:, -1] = 0.2 * p[:, -1]
        smooth = 0.8 * smooth + local
        if min_count > min_range(nb_adapt):
            min_count = 0
            smin = torch.minimum(stmp, smooth)
            stmp = smooth.clone()
        else:
            smin = torch.minimum(smin, smooth)
            stmp = torch.minimum(stmp, smooth)
        u = (1.0 - smin / (0.4 * smooth)).clamp(0.0, 1.0)
        noise = (1.0 - beta) * noise + beta * torch.minimum(p, noise) + beta * (1.0 - u) * (p - noise).clamp(min=0.0)
        if t == 0:
            old_ps = p.clone()
        tot = 1.0 + noise
        post = (p / tot - 1.0).clamp(max=100.0)
        r = old_ps / (old_ps + tot)
        gamma = 0.1 + 0.89 * r * r
        prior = (gamma * post.clamp(min=0.0) + (1.0 - gamma) * old_ps / tot).clamp(max=100.0)
        gw = prior / (1.0 + prior)
        gain[:, t] = torch.maximum(gw, torch.sqrt(floor * noise / (1.0 + p))).clamp(max=1.0)
        old_ps = 0.2 * old_ps + 0.8 * gw * gw * p
    return gain.to(ps.dtype), noise.to(ps.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    elems = s["S"] * s["T"] * s["N"]
    return {"bytes": 8 * elems + 4 * s["S"] * s["N"], "flops": 40 * elems}
