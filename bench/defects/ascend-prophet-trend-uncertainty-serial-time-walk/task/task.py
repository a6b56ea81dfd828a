"""Prophet's vectorized trend-uncertainty simulation (sample_predictive_trend_vectorized, linear growth).

For the L future steps of a forecast, Prophet draws N future trend paths (uncertainty_samples = 1000):
_make_trend_shift_matrix puts a Laplace(0, mean|delta|) slope change at each step with probability
likelihood = n_changepoints * single_diff and averages neighbours,
    mat[t] = shift[t] * (u[t] < likelihood);   mat_avg[t] = (mat[t] + mat[t-1]) / 2   (mat[-1] = 0)
_sample_uncertainty integrates twice (slope changes -> slope -> level) and rescales,
    unc[t] = single_diff * cumsum(cumsum(mat_avg))[t]
and the trend samples are (expected[t] + unc[t]) * y_scale, expected the MAP piecewise-linear trend.
The uniform and Laplace draws are inputs. Layout is predictive_samples': (nforecast x nsamples),
i.e. u, shift and the output are [L, N] with the samples contiguous.
"""
import torch

META = {
    "name": "prophet_trend_uncertainty_samples",
    "level": 2,
    "category": "scan",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 6, "L": 40, "hist": 120, "n_changepoints": 25},
        "ragged": {"N": 11, "L": 57, "hist": 200, "n_changepoints": 25},
        "large": {"N": 1000, "L": 8760, "hist": 26280, "n_changepoints": 25},
    },
    "baseline_notes": "Programs own 32 samples each (min(40, blocks) programs looping over sample blocks) "
                      "and walk the horizon in [128 steps x 32 samples] tiles: the slope-change tile, two "
                      "tl.cumsum along the leading (time) axis with the running slope and level carried "
                      "between tiles as [32] vectors, one store per tile. No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """u [L, N] uniforms, shift [L, N] Laplace draws, expected [L], likelihood, single_diff, y_scale."""
    s = META["sizes"][size]
    N, L, hist = s["N"], s["L"], s["hist"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    single_diff = 1.0 / (hist - 1)                                    # t step of the scaled time axis
    likelihood = s["n_changepoints"] * single_diff
    mean_delta = 0.03
    u = torch.rand(L, N, generator=g)
    v = torch.rand(L, N, generator=g) - 0.5
    shift = -mean_delta * torch.sign(v) * torch.log1p(-2.0 * v.abs())  # Laplace(0, mean_delta)
    t_future = 1.0 + single_diff * torch.arange(1, L + 1, dtype=torch.float64)
    expected = 0.2 + 0.6 * t_future                                  # MAP trend after the last changepoint
    y_scale = 1250.0
    return (u.to(dt).to(device), shift.to(dt).to(device), expected.to(dt).to(device),
            likelihood, single_diff, y_scale)


def reference(u, shift, expected, likelihood, single_diff, y_scale) -> torch.Tensor:
    mat = torch.where(u < likelihood, shift, torch.zeros_like(shift)).double()
    prev = torch.cat([torch.zeros_like(mat[:1]), mat[:-1]], dim=0)
    avg = (mat + prev) / 2
    unc = avg.cumsum(dim=0).cumsum(dim=0) * single_diff
    return ((expected.double()[:, None] + unc) * y_scale).to(u.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    N, L = s["N"], s["L"]
    return {"bytes": 4 * (3 * N * L + L), "flops": 8 * N * L}
