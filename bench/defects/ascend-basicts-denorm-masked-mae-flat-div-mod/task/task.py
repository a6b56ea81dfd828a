"""Masked MAE of de-normalised forecasts over a traffic test set (BasicTS runner: inverse ZScoreScaler + masked_mae).

The model emits normalised speeds pred [S, L, N] (samples x horizon steps x sensors, the squeezed
[B, L, N, 1] output concatenated over the test loader). The runner first undoes the per-sensor
z-score (norm_each_channel=True) and then scores it against the raw target with the masked MAE
of Graph WaveNet / BasicTS, null value 0.0:
    yhat[s, l, n] = pred[s, l, n] * std[n] + mean[n]
    valid = target != 0
    mae = sum(|yhat - target| * valid) / sum(valid)      (0 when no reading is valid)
which equals masked_mae's mask / mean(mask) weighting with NaNs zeroed. Returns a 0-d fp32 tensor.
"""
import torch

META = {
    "name": "denorm_masked_mae",
    "level": 2,
    "category": "loss",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"S": 5, "L": 12, "N": 37},
        "ragged": {"S": 3, "L": 12, "N": 53},
        "large": {"S": 10419, "L": 12, "N": 325},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of [4 rows (sample, step), "
                      "next_power_of_2(N) sensors] tiles; the sensors' mean and std are loaded once per "
                      "program as contiguous vectors; per-program masked sum and count go to a [P] partial "
                      "buffer, and a one-program kernel adds the partials and divides.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pred [S, L, N] (normalised), target [S, L, N] (mph, ~5% zero = missing), mean [N], std [N]."""
    s = META["sizes"][size]
    S, L, N = s["S"], s["L"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    mean = 55.0 + 12.0 * torch.rand(N, generator=g)
    std = 4.0 + 8.0 * torch.rand(N, generator=g)
    z = torch.randn(S, L, N, generator=g).clamp(-4.0, 2.0)
    target = (z * std + mean).clamp(min=3.0)
    pred = z + 0.25 * (1.0 + torch.arange(L, dtype=torch.float32)[None, :, None] / L) \
        * torch.randn(S, L, N, generator=g)
    target[torch.rand(S, L, N, generator=g) < 0.05] = 0.0
    target[:, :, N // 2] = 0.0
    return (pred.to(dt).to(device), target.to(dt).to(device), mean.to(dt).to(device),
            std.to(dt).to(device))


def reference(pred: torch.Tensor, target: torch.Tensor, mean: torch.Tensor, std: torch.Tensor) -> torch.Tensor:
    yhat = pred.double() * std.double() + mean.double()
    valid = target != 0
    err = torch.where(valid, (yhat - target.double()).abs(), 0.0).sum()
    cnt = valid.sum().double()
    mae = torch.where(cnt > 0, err / cnt.clamp(min=1.0), torch.zeros_like(err))
    return mae.to(pred.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["S"] * s["L"] * s["N"]
    return {"bytes": 8 * n + 8 * s["N"] + 4, "flops": 6 * n}
