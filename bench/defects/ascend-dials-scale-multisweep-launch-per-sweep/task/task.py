"""Apply a multi-sweep DIALS physical scaling model to the reflections (dials.scale, multi-crystal data).

Reflections of S sweeps are stored sweep after sweep (sweep s owns rows offsets[s]:offsets[s+1], as in a
combined reflection table). Every sweep has its own scale and decay components, each a DIALS-style
Gaussian smoother over the sweep's rotation range: with x the rotation angle normalised to
[0, n_intervals] (n_params = n_intervals + 2, parameter i sitting at i - 0.5),
    value(x) = sum_i w_i p_i / sum_i w_i,   w_i = exp(-((x - (i - 0.5)) / 0.65)^2)
(summed over all of the sweep's parameters; DIALS truncates to the three nearest). The inverse scale is
    g = C(x_scale) * exp(B(x_decay) / (2 d^2))
and the scaled intensities are I / g with variances V / g^2. Returns (I_scaled, V_scaled), fp32 [N].
"""
import torch

META = {
    "name": "multisweep_apply_scale",
    "level": 2,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"S": 3, "min_refl": 40, "max_refl": 160},
        "ragged": {"S": 6, "min_refl": 1, "max_refl": 250},
        # multi-crystal / small-wedge data: 400 sweeps of ~25k reflections (10.0 M reflections)
        "large": {"S": 400, "min_refl": 15000, "max_refl": 35000},
    },
    "baseline_notes": "One launch: 40 programs (the A2's vector cores) loop over (sweep, block of 1024 "
                      "reflections) work items, skipping blocks past the sweep's end; the sweep's range and "
                      "its 8 scale and 5 decay parameters are scalar loads, the smoothers loop over the "
                      "parameters with 1024-wide vector math. offsets.tolist() on the host for the largest "
                      "sweep. No autotune.",
    "deterministic": True,
}
N_SCALE = 8   # 6 intervals over the sweep
N_DECAY = 5   # 3 intervals over the sweep
SIGMA = 0.65


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """intensity, variance, phi (deg), d (A) fp32 [N]; offsets int32 [S+1]; phi_range fp32 [S, 2]
    (start, width in deg); scale_par fp32 [S, 8]; decay_par fp32 [S, 5]."""
    s = META["sizes"][size]
    S = s["S"]
    g = torch.Generator().manual_seed(seed)
    counts = torch.randint(s["min_refl"], s["max_refl"] + 1, (S,), generator=g)
    offsets = torch.zeros(S + 1, dtype=torch.int64)
    offsets[1:] = torch.cumsum(counts, 0)
    n = int(offsets[-1])
    sweep = torch.repeat_interleave(torch.arange(S), counts)
    start = torch.rand(S, generator=g) * 360.0
    width = 10.0 + 30.0 * torch.rand(S, generator=g)
    phi = start[sweep] + width[sweep] * torch.rand(n, generator=g)
    inv_d3 = 1.0 / 30.0 ** 3 + (1.0 / 1.4 ** 3 - 1.0 / 30.0 ** 3) * torch.rand(n, generator=g)
    d = inv_d3 ** (-1.0 / 3.0)
    crystal = 0.3 + 2.0 * torch.rand(S, generator=g)
    scale_par = crystal[:, None] * (1.0 + 0.15 * torch.randn(S, N_SCALE, generator=g))
    decay_par = -1.0 * torch.rand(S, 1, generator=g) + 2.0 * torch.randn(S, N_DECAY, generator=g)
    true_i = -torch.log(torch.rand(n, generator=g)) * 400.0 * torch.exp(-8.0 / d ** 2)
    bg = 5.0 + 20.0 * torch.rand(n, generator=g)
    variance = true_i + bg
    intensity = true_i + torch.sqrt(variance) * torch.randn(n, generator=g)
    phi_range = torch.stack([start, width], 1)
    f32 = lambda t: t.float().to(device)
    return (f32(intensity), f32(variance), f32(phi), f32(d), offsets.to(torch.int32).to(device),
            f32(phi_range), f32(scale_par), f32(decay_par))


def _smooth(x: torch.Tensor, par: torch.Tensor) -> torch.Tensor:
    pos = torch.arange(par.shape[1], dtype=torch.float64, device=x.device) - 0.5
    w = torch.exp(-(((x[:, None] - pos[None, :]) / SIGMA) ** 2))
    return (w * par).sum(1) / w.sum(1)


def reference(intensity, variance, phi, d, offsets, phi_range, scale_par, decay_par) -> tuple:
    counts = (offsets[1:] - offsets[:-1]).long()
    sweep = torch.repeat_interleave(torch.arange(counts.numel(), device=counts.device), counts)
    pr = phi_range.double()[sweep]
    u = ((phi.double() - pr[:, 0]) / pr[:, 1]).clamp(0.0, 1.0)
    c = _smooth(u * (scale_par.shape[1] - 2), scale_par.double()[sweep])
    b = _smooth(u * (decay_par.shape[1] - 2), decay_par.double()[sweep])
    dd = d.double()
    g = c * torch.exp(b / (2.0 * dd * dd))
    return (intensity.double() / g).float(), (variance.double() / (g * g)).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["S"] * (s["min_refl"] + s["max_refl"]) // 2
    return {"bytes": 24 * n, "flops": (N_SCALE + N_DECAY) * 7 * n + 20 * n}
