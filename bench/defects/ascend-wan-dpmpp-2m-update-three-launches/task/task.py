"""Second-order DPM-Solver++ (2M, midpoint) update of Wan 2.1's FlowDPMSolverMultistepScheduler
(multistep_dpm_solver_second_order_update, flow prediction): from the current latents and the last two data
predictions m0, m1, x_t = (sigma_t / sigma_s0) * sample - alpha_t (e^-h - 1) (m0 + 0.5 (m0 - m1) / r0),
with alpha = 1 - sigma, lambda = log(alpha) - log(sigma), h = lambda_t - lambda_s0, r0 = (lambda_s0 - lambda_s1) / h."""
import math

import torch

META = {
    "name": "wan_dpmpp_2m_update",
    "level": 2,
    "category": "fused",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"C": 16, "F": 2, "H": 6, "W": 10, "step": 20},
        "ragged": {"C": 16, "F": 3, "H": 13, "W": 23, "step": 7},
        "large": {"C": 16, "F": 21, "H": 90, "W": 160, "step": 20},
    },
    "baseline_notes": "One elementwise kernel over the flattened latents, one program per vector core looping over "
                      "8192-element blocks: loads sample, m0, m1, applies the host-computed step coefficients in "
                      "fp32, one store.",
    "deterministic": True,
}

NUM_STEPS = 50
SHIFT = 5.0


def _sigmas() -> list[float]:
    """Wan's shifted flow-matching schedule: sigma = shift * s / (1 + (shift - 1) * s), s from 1 to 0."""
    s = [1.0 - i / NUM_STEPS for i in range(NUM_STEPS + 1)]
    return [SHIFT * v / (1.0 + (SHIFT - 1.0) * v) for v in s]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """sample, m0, m1 [1, C, F, H, W] fp32 latents and x0 predictions, and the floats sigma_s1, sigma_s0, sigma_t
    of steps step - 1, step, step + 1."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    shape = (1, s["C"], s["F"], s["H"], s["W"])
    sig = _sigmas()
    i = s["step"]
    x0 = torch.randn(shape, generator=g) * 0.6
    sample = (1.0 - sig[i]) * x0 + sig[i] * torch.randn(shape, generator=g)
    m0 = x0 + 0.05 * torch.randn(shape, generator=g)
    m1 = x0 + 0.1 * torch.randn(shape, generator=g)
    return (sample.to(dt).to(device), m0.to(dt).to(device), m1.to(dt).to(device),
            sig[i - 1], sig[i], sig[i + 1])


def reference(sample: torch.Tensor, m0: torch.Tensor, m1: torch.Tensor,
              sigma_s1: float, sigma_s0: float, sigma_t: float) -> torch.Tensor:
    alpha_t, alpha_s0, alpha_s1 = 1.0 - sigma_t, 1.0 - sigma_s0, 1.0 - sigma_s1
    lambda_t = math.log(alpha_t) - math.log(sigma_t)
    lambda_s0 = math.log(alpha_s0) - math.log(sigma_s0)
    lambda_s1 = math.log(alpha_s1) - math.log(sigma_s1)
    h = lambda_t - lambda_s0
    r0 = (lambda_s0 - lambda_s1) / h
    d0 = m0.double()
    d1 = (1.0 / r0) * (m0.double() - m1.double())
    x_t = (sigma_t / sigma_s0) * sample.double() - (alpha_t * (math.exp(-h) - 1.0)) * d0 \
        - 0.5 * (alpha_t * (math.exp(-h) - 1.0)) * d1
    return x_t.to(sample.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["C"] * s["F"] * s["H"] * s["W"]
    return {"bytes": 4 * 4 * n, "flops": 6 * n}
