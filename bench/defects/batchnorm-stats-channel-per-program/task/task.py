"""BatchNorm training statistics over channels-last activations: per-channel mean and biased variance of x [M, C] (M = batch * positions), as torch.batch_norm's / FlagGems batch_norm's stats step."""
import torch

META = {
    "name": "batchnorm_stats",
    "level": 2,
    "category": "norm",
    "dtypes": ["float16", "float32"],
    "tolerance": {"float16": {"atol": 1e-3, "rtol": 1e-3}, "float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"M": 3000, "C": 48},
        "ragged": {"M": 50001, "C": 333},
        "large": {"M": 262144, "C": 1024},
    },
    "baseline_notes": "Split reduction: [64 rows, 64 channels] tiles with channels contiguous, each program "
                      "sums x and x*x over a row range into fp32 partials, a second kernel combines the "
                      "partials into mean and var; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [M, C]: normals with a per-channel offset and scale."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["M"], s["C"], generator=g) * (0.5 + torch.rand(s["C"], generator=g)) \
        + 0.5 * torch.randn(s["C"], generator=g)
    return (x.to(device=device, dtype=getattr(torch, dtype or META["dtypes"][0])),)


def reference(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    xd = x.double()
    return xd.mean(0).float(), xd.var(0, unbiased=False).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": s["M"] * s["C"] * item + 8 * s["C"], "flops": 3 * s["M"] * s["C"]}
