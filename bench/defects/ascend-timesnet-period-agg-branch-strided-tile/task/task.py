"""TimesNet TimesBlock top-k period aggregation (Time-Series-Library models/TimesNet.py, MindSpore port).

After the k period branches (reshape to 2-D by period, Inception conv, reshape back) each branch
output res[i] is [B, T, N]; the branches are mixed with a softmax over the FFT amplitudes of the
selected periods and added to the block input:
    out[b] = x[b] + sum_i softmax(period_weight[b])_i * res[i, b]
The branch outputs arrive stacked along a leading axis, res [K, B, T, N].
"""
import torch

META = {
    "name": "timesnet_period_aggregation",
    "level": 2,
    "category": "fused",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"K": 5, "B": 2, "T": 24, "N": 16},
        "ragged": {"K": 5, "B": 3, "T": 37, "N": 19},
        "large": {"K": 5, "B": 32, "T": 816, "N": 256},
    },
    "baseline_notes": "Persistent grid of 40 programs (one per AIV core) over (batch, 1024-element block of T*N) "
                      "tiles: softmax of the K amplitudes, then one contiguous 1024-element load per branch "
                      "accumulated with its weight onto the residual; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """res [K, B, T, N] branch outputs, period_weight [B, K] (positive FFT amplitudes), x [B, T, N]."""
    s = META["sizes"][size]
    K, B, T, N = s["K"], s["B"], s["T"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    res = torch.randn(K, B, T, N, generator=g)
    period_weight = torch.rand(B, K, generator=g) * 4.0
    x = torch.randn(B, T, N, generator=g)
    return res.to(dt).to(device), period_weight.to(dt).to(device), x.to(dt).to(device)


def reference(res: torch.Tensor, period_weight: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    w = torch.softmax(period_weight.double(), dim=1)                  # [B, K]
    mixed = (res.double().permute(1, 2, 3, 0) * w[:, None, None, :]).sum(-1)
    return (mixed + x.double()).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["T"] * s["N"]
    return {"bytes": 4 * (s["K"] * n + 2 * n + s["B"] * s["K"]), "flops": 2 * s["K"] * n + n}
