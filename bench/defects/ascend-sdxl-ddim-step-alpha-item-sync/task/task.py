"""DDIM scheduler step over an SDXL latent (diffusers DDIMScheduler.step, eta = 0, epsilon prediction).

SDXL schedule: scaled_linear betas from 0.00085 to 0.012 over 1,000 training steps, steps_offset 1,
set_alpha_to_one False (the final alpha is alphas_cumprod[0]). For timestep t with
prev = t - step_ratio: a_t = alphas_cumprod[t], a_prev = alphas_cumprod[prev] (alphas_cumprod[0]
when prev < 0), x0 = (x - sqrt(1 - a_t) eps) / sqrt(a_t), x_prev = sqrt(a_prev) x0 + sqrt(1 - a_prev) eps.
The timestep is a device tensor, as the pipeline keeps scheduler.timesteps on the NPU.
"""
import torch

META = {
    "name": "sdxl_ddim_step",
    "level": 2,
    "category": "fused",
    "dtypes": ["float16", "bfloat16"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2},
                  "bfloat16": {"atol": 3e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 1, "C": 4, "H": 16, "W": 16, "steps": 50},
        "ragged": {"B": 3, "C": 4, "H": 19, "W": 27, "steps": 30},
        "large": {"B": 4, "C": 4, "H": 128, "W": 128, "steps": 50},
    },
    "baseline_notes": "One launch of about one program per AI vector core (40), each looping over 2,048-element "
                      "tiles of the flattened latent; every program loads the timestep and the two alphas "
                      "itself and forms the two step coefficients on its scalar unit; fp32 math, store in "
                      "the latent dtype.",
    "deterministic": True,
}
TRAIN_STEPS = 1000


def _alphas_cumprod() -> torch.Tensor:
    betas = torch.linspace(0.00085 ** 0.5, 0.012 ** 0.5, TRAIN_STEPS, dtype=torch.float32) ** 2
    return torch.cumprod(1.0 - betas, dim=0)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """model_output (eps) and sample [B, C, H, W], alphas_cumprod [1000] fp32, timestep [1] int64, step_ratio."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    shape = (s["B"], s["C"], s["H"], s["W"])
    step_ratio = TRAIN_STEPS // s["steps"]
    schedule = torch.arange(s["steps"] - 1, -1, -1) * step_ratio + 1
    k = s["steps"] - 1 if seed % 2 else int(torch.randint(0, s["steps"] - 1, (1,), generator=g))
    timestep = schedule[k : k + 1].to(torch.int64)
    eps = torch.randn(shape, generator=g)
    sample = torch.randn(shape, generator=g) * 1.2
    return (eps.to(device=device, dtype=dt), sample.to(device=device, dtype=dt),
            _alphas_cumprod().to(device), timestep.to(device), step_ratio)


def reference(model_output, sample, alphas_cumprod, timestep, step_ratio):
    acp = alphas_cumprod.double()
    t = int(timestep[0])
    prev = t - step_ratio
    a_t = acp[t]
    a_prev = acp[prev] if prev >= 0 else acp[0]
    x, e = sample.double(), model_output.double()
    x0 = (x - (1 - a_t).sqrt() * e) / a_t.sqrt()
    return (a_prev.sqrt() * x0 + (1 - a_prev).sqrt() * e).to(sample.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["C"] * s["H"] * s["W"]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 3 * n * item + 16, "flops": 3 * n}
