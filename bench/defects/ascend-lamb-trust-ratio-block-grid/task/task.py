"""LAMB stage 2: apply the layer-wise trust ratio, p_new = p - lr * (||p|| / ||u||) * u (ratio 1 when either
norm is zero), from the squared norms the stage-1 reduction left on the device."""
import torch

META = {
    "name": "lamb_apply_trust_ratio",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-5}},
    "sizes": {
        "small": {"R": 300, "C": 256},
        "ragged": {"R": 517, "C": 1000},
        "large": {"R": 30522, "C": 1024},
    },
    "baseline_notes": "One program per vector core (48 on an Atlas A2), trust ratio computed once per program, "
                      "each program striding over 2,048-element blocks of the flat parameter.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """param [R, C], update [R, C] (stage 1: Adam direction + weight_decay * param), ||param||^2 [1], ||update||^2 [1], lr."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    param = torch.randn(s["R"], s["C"], generator=g) * 0.02
    update = torch.randn(s["R"], s["C"], generator=g) * 0.5 + 0.01 * param
    w_sq = (param.double() ** 2).sum().float().reshape(1)
    u_sq = (update.double() ** 2).sum().float().reshape(1)
    return param.to(dt).to(device), update.to(dt).to(device), w_sq.to(device), u_sq.to(device), 1e-3


def reference(param, update, w_sq, u_sq, lr) -> torch.Tensor:
    w_norm, u_norm = w_sq.sqrt(), u_sq.sqrt()
    ratio = torch.where((w_norm > 0) & (u_norm > 0), w_norm / u_norm, torch.ones_like(w_norm))
    return param - (lr * ratio) * update


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["R"] * s["C"]
    return {"bytes": 12 * n, "flops": 2 * n}
