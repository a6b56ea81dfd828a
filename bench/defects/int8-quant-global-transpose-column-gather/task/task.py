"""Global (per-tensor) int8 quantize-and-transpose of a weight, as bitsandbytes' quantize_global_transpose for
SwitchBack int8 training: out[k, n] = round_half_away(127 * w[n, k] / absmax(w)), an int8 [K, N] matrix."""
import torch

META = {
    "name": "int8_quantize_global_transpose",
    "level": 2,
    "category": "layout",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1.0, "rtol": 1e-5}},
    "sizes": {
        "small": {"N": 48, "K": 80},
        "ragged": {"N": 37, "K": 101},
        "large": {"N": 14336, "K": 4096},
    },
    "baseline_notes": "2-D grid of 64 x 64 tiles: each program loads a row-major [64, 64] tile of w (contiguous "
                      "along K), scales and rounds it, transposes it on chip and stores a [64, 64] tile of the "
                      "[K, N] output contiguous along N.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Weight w [N, K] (out_features x in_features) and its absmax [1] fp32 (from the previous step)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    w = (torch.randn(s["N"], s["K"], generator=g) * 0.02).to(dt)
    absmax = w.float().abs().max().reshape(1)
    return w.to(device), absmax.to(device)


def reference(w: torch.Tensor, absmax: torch.Tensor) -> torch.Tensor:
    v = 127.0 * w.double() / absmax.double()
    q = torch.sign(v) * torch.floor(v.abs() + 0.5)
    return q.t().contiguous().to(torch.int8)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["N"] * s["K"]
    return {"bytes": 2 * n + n + 4, "flops": 3 * n}
