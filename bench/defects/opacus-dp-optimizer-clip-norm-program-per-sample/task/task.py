"""DP-SGD step of the Opacus DPOptimizer for flat clipping: per-sample norms, clip, sum, noise, scale.

opacus/optimizers/optimizer.py (DPOptimizer.clip_and_accumulate, add_noise, scale_grad): with the
per-sample gradients of the model flattened to grad_sample [B, P] (one row per example of the
physical batch),

    norm_b   = || grad_sample[b] ||_2
    factor_b = min(max_grad_norm / (norm_b + 1e-6), 1)
    grad     = (sum_b factor_b * grad_sample[b] + noise_multiplier * max_grad_norm * noise) / expected_batch_size

`noise` [P] holds the standard normal draws of the step (Opacus draws them with its secure
generator; here they are an input so the step is deterministic). Inputs: grad_sample [B, P] fp32,
noise [P] fp32, max_grad_norm (float), noise_multiplier (float), expected_batch_size (int).
Returns (grad [P] fp32, per_sample_norms [B] fp32).
"""
import torch

META = {
    "name": "dp_clip_accumulate_noise",
    "level": 2,
    "category": "differential_privacy",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 4, "P": 3000},
        "ragged": {"B": 3, "P": 70001},
        "large": {"B": 16, "P": 8388608},
    },
    "baseline_notes": "Norms: grid (B, P / 65536), each program sums squares of a 65536-wide chunk of one "
                      "row in 1024-wide blocks and stores a partial; a (B,) kernel adds the partials, takes "
                      "the root and the clip factor. Clip-sum: one program per 1024 parameters loops over "
                      "the B rows (coalesced), adds the scaled noise and divides by the expected batch size. "
                      "4 warps, no autotune.",
    "deterministic": True,
}
MAX_GRAD_NORM = 1.0
NOISE_MULTIPLIER = 1.1
EXPECTED_BATCH_SIZE = 256


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Per-sample gradients with norms spread around the clipping threshold, and the step's noise draws."""
    s = META["sizes"][size]
    b, p = s["B"], s["P"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # per-example norms between ~0.25 and ~4 x max_grad_norm: some rows are clipped, some are not
    scale = torch.exp(torch.empty(b).uniform_(-1.4, 1.4, generator=g)) * MAX_GRAD_NORM / p ** 0.5
    grad_sample = torch.randn(b, p, generator=g) * scale[:, None]
    noise = torch.randn(p, generator=g)
    return (grad_sample.to(device=device, dtype=dt), noise.to(device=device, dtype=dt),
            MAX_GRAD_NORM, NOISE_MULTIPLIER, EXPECTED_BATCH_SIZE)


def reference(grad_sample: torch.Tensor, noise: torch.Tensor, max_grad_norm: float,
              noise_multiplier: float, expected_batch_size: int) -> tuple:
    gs = grad_sample.double()
    norms = gs.norm(2, dim=1)
    factor = (max_grad_norm / (norms + 1e-6)).clamp(max=1.0)
    summed = factor @ gs
    grad = (summed + noise_multiplier * max_grad_norm * noise.double()) / expected_batch_size
    return grad.to(grad_sample.dtype), norms.to(grad_sample.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    b, p = s["B"], s["P"]
    return {"bytes": 4 * (b * p + 2 * p), "flops": 4 * b * p}
