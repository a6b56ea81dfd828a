"""Per-horizon masked test metrics of a traffic forecaster (DCRNN evaluate(): masked MAE / MAPE / RMSE).

DCRNN's test pass stacks the decoder outputs of the whole test split horizon-major, y_pred [T, S, N]
(12 horizons x S test samples x N sensors, still in z-score units), un-normalises them with the
training StandardScaler (pred = y_pred * std + mean) and scores every horizon t against the ground
truth y_true [T, S, N] (mph), masking the missing readings (null_val = 0: a loop detector that reported
nothing is stored as 0 mph):
    valid = y_true[t] != 0,  n_t = sum(valid)
    mae[t]  = sum_valid |pred - y| / n_t
    mape[t] = sum_valid |pred - y| / |y| / n_t
    rmse[t] = sqrt(sum_valid (pred - y)^2 / n_t)
(the masked_mae / masked_mape / masked_rmse of DCRNN's metrics.py, whose mask / mean(mask) weighting is
the same sum over valid readings divided by their count). Returns [T, 3] fp32 (mae, mape, rmse).
"""
import torch

META = {
    "name": "masked_horizon_metrics",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"T": 12, "S": 6, "N": 50},
        "ragged": {"T": 12, "S": 7, "N": 207},
        "large": {"T": 12, "S": 10419, "N": 325},
    },
    "baseline_notes": "Grid (T, 3): three programs per horizon (36 of the 40 vector cores) stride over "
                      "the horizon's contiguous S*N block in 2048-element tiles, un-normalise, and keep "
                      "per-lane sums of |e|, |e|/|y|, e^2 and the valid count; one partial row per program, "
                      "a one-program kernel folds the partials into (mae, mape, rmse) per horizon.",
    "deterministic": True,
}
SCALER_MEAN, SCALER_STD = 62.62, 9.59  # PEMS-BAY training-split speed statistics (mph)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """y_pred [T, S, N] (z-scores), y_true [T, S, N] (mph, 0 = missing), scaler mean, scaler std."""
    s = META["sizes"][size]
    T, S, N = s["T"], s["S"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    free_flow = 55.0 + 15.0 * torch.rand(1, 1, N, generator=g)
    jam = (torch.rand(T, S, N, generator=g) < 0.15).float() * 35.0 * torch.rand(T, S, N, generator=g)
    y = (free_flow - jam + 2.0 * torch.randn(T, S, N, generator=g)).clamp(min=3.0)
    err = (1.0 + 0.25 * torch.arange(T).view(T, 1, 1)) * torch.randn(T, S, N, generator=g)
    y_pred = (y + err - SCALER_MEAN) / SCALER_STD
    outage = torch.rand(1, S, N, generator=g) < 0.06          # sensor-sample outages hit every horizon
    y_true = y.masked_fill(outage | (torch.rand(T, S, N, generator=g) < 0.02), 0.0)
    return y_pred.to(dt).to(device), y_true.to(dt).to(device), SCALER_MEAN, SCALER_STD


def reference(y_pred: torch.Tensor, y_true: torch.Tensor, mean: float, std: float) -> torch.Tensor:
    p = y_pred.double() * std + mean
    y = y_true.double()
    valid = (y != 0.0).double()
    n = valid.sum(dim=(1, 2))
    err = (p - y).abs() * valid
    ape = err / torch.where(y != 0.0, y.abs(), torch.ones_like(y))
    mae = err.sum(dim=(1, 2)) / n
    mape = ape.sum(dim=(1, 2)) / n
    rmse = (((p - y) ** 2 * valid).sum(dim=(1, 2)) / n).sqrt()
    return torch.stack([mae, mape, rmse], dim=1).to(y_pred.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["T"] * s["S"] * s["N"]
    return {"bytes": 8 * n + 12 * s["T"], "flops": 14 * n}
