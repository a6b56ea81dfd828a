"""Exponential moving average of model weights (timm ModelEmaV2 / torch._foreach_lerp_): ema' = ema + (1 - decay) * (param - ema), over a flat fp32 weight buffer."""
import torch

META = {
    "name": "ema_update",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-6}},
    "sizes": {
        "small": {"n": 10_007, "decay": 0.999},
        "ragged": {"n": 1_000_003, "decay": 0.9999},
        "large": {"n": 67_108_864, "decay": 0.9998},
    },
    "baseline_notes": "Flat elementwise kernel, BLOCK=2048 (16 fp32 per thread on 4 warps), fp32 lerp; "
                      "no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """ema and param [n] (fp32, param = ema + small noise) and the decay."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    ema = torch.randn(s["n"], generator=g) * 0.02
    param = ema + torch.randn(s["n"], generator=g) * 1e-3
    return ema.to(device), param.to(device), s["decay"]


def reference(ema: torch.Tensor, param: torch.Tensor, decay: float) -> torch.Tensor:
    return torch.lerp(ema, param, 1.0 - decay)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["n"]
    return {"bytes": 12 * n, "flops": 3 * n}
