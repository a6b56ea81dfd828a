"""SmoothQuant calibration: per-channel activation absmax over a batch and the smoothing factors.

(mit-han-lab/smoothquant calibration.get_act_scales + smooth.smooth_ln_fcs, msModelSlim anti-outlier
SmoothQuant, alpha = 0.5.) For activations x [T, C] of one calibration batch:
    amax_new[c] = max(amax_old[c], max_t |x[t, c]|)                       (running absmax, fp32)
    s[c]        = max(amax_new[c] ** alpha / max(w_amax[c], 1e-5) ** (1 - alpha), 1e-5)
w_amax is the per-input-channel absmax of the weights that consume x (q/k/v or gate/up), fp32.
"""
import torch

ALPHA = 0.5

META = {
    "name": "smoothquant_act_scales",
    "level": 2,
    "category": "reduction",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-6, "rtol": 1e-5}},
    "sizes": {
        "small": {"T": 96, "C": 200},
        "ragged": {"T": 301, "C": 333},
        "large": {"T": 16384, "C": 8192},
    },
    "baseline_notes": "Persistent grid of min(channel blocks, 40) programs, each owning 128-channel blocks: "
                      "[64 tokens, 128 channels] tiles with the channels contiguous, a running elementwise "
                      "absmax tile reduced over tokens once per block, then the smoothing factors.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [T, C] with a few outlier channels, running amax [C] fp32, weight channel absmax [C] fp32."""
    s = META["sizes"][size]
    T, C = s["T"], s["C"]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(T, C, generator=g)
    x[:, :: max(1, C // 16)] *= 30.0
    amax_old = torch.rand(C, generator=g) * 2.0 + 0.1
    w_amax = torch.rand(C, generator=g) * 0.2 + 0.01
    w_amax[::7] = 0.0
    dt = getattr(torch, dtype or META["dtypes"][0])
    return x.to(dt).to(device), amax_old.to(device), w_amax.to(device)


def reference(x: torch.Tensor, amax_old: torch.Tensor, w_amax: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    amax = torch.maximum(amax_old.float(), x.float().abs().amax(dim=0))
    s = (amax.double().pow(ALPHA) / w_amax.double().clamp(min=1e-5).pow(1.0 - ALPHA)).clamp(min=1e-5)
    return amax, s.float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": s["T"] * s["C"] * item + 16 * s["C"], "flops": 2 * s["T"] * s["C"]}
