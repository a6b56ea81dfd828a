"""Per-sample MSE of a diffusion model's prediction (mean over all non-batch dims of (pred - target)^2), as the min-SNR / EDM loss weighting needs before the batch mean."""
import torch

META = {
    "name": "per_sample_mse",
    "level": 1,
    "category": "loss",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 3, "C": 4, "F": 2, "H": 10, "W": 13},
        "ragged": {"B": 5, "C": 4, "F": 3, "H": 61, "W": 67},
        "large": {"B": 8, "C": 16, "F": 32, "H": 128, "W": 128},
    },
    "baseline_notes": "Grid (sample, 64 splits): each program sums (pred - target)^2 over its slice of the sample in "
                      "4096-element fp32 blocks into a [B, 64] partial buffer; a second kernel of B programs sums the "
                      "partials and divides by the sample size.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pred and target [B, C, F, H, W] video latents (target = noise or velocity)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    shape = (s["B"], s["C"], s["F"], s["H"], s["W"])
    target = torch.randn(shape, generator=g)
    pred = target + 0.3 * torch.randn(shape, generator=g)
    dt = getattr(torch, dtype or META["dtypes"][0])
    return pred.to(dt).to(device), target.to(dt).to(device)


def reference(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    return ((pred.double() - target.double()) ** 2).flatten(1).mean(1).to(pred.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["C"] * s["F"] * s["H"] * s["W"]
    return {"bytes": 2 * n * 4 + 4 * s["B"], "flops": 3 * n}
