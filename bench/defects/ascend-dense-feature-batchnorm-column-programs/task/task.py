"""Training-mode BatchNorm1d over a ranking model's dense feature activations (the BN layers of a
Wide&Deep / DCN-v2 deep tower): per feature, batch mean and biased variance, then
y = (x - mean) / sqrt(var + eps) * gamma + beta. Input float32 [B, D], output float32 [B, D]."""
import torch

EPS = 1e-5

META = {
    "name": "dense_feature_batchnorm",
    "level": 2,
    "category": "normalization",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 100, "D": 48},
        "ragged": {"B": 333, "D": 77},
        "large": {"B": 32768, "D": 1024},
    },
    "baseline_notes": "Two kernels: feature statistics with each program owning a block of 32 contiguous "
                      "features and walking the batch in [256, 32] tiles (sum and sum of squares in fp32), "
                      "then a row-tiled normalize on a grid of the 40 vector cores.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, D] activations with per-feature offsets and scales, gamma and beta [D]."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    loc = torch.randn(s["D"], generator=g)
    scale = torch.rand(s["D"], generator=g) * 2.0 + 0.2
    x = torch.randn(s["B"], s["D"], generator=g) * scale + loc
    gamma = torch.rand(s["D"], generator=g) + 0.5
    beta = torch.randn(s["D"], generator=g) * 0.1
    return x.to(dt).to(device), gamma.to(dt).to(device), beta.to(dt).to(device)


def reference(x: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor) -> torch.Tensor:
    xd = x.double()
    mean = xd.mean(dim=0)
    var = xd.var(dim=0, unbiased=False)
    y = (xd - mean) / torch.sqrt(var + EPS) * gamma.double() + beta.double()
    return y.to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["D"]
    return {"bytes": 4 * 3 * n + 4 * 2 * s["D"], "flops": 7 * n}
