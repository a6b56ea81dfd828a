"""Adam-mini step for an attention query/key projection (Adam-mini, Zhang et al. 2024): AdamW's first
moment per element, but ONE second-moment scalar per head block, v_h = beta2 * v_h + (1 - beta2) * mean(g_h^2),
shared by every weight of that head. Decoupled weight decay, bias correction; returns new (param, m, v)."""
import math

import torch

META = {
    "name": "adam_mini_head_block_step",
    "level": 2,
    "category": "fused",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-5}},
    "sizes": {
        "small": {"R": 64, "C": 256, "H": 2},
        "ragged": {"R": 90, "C": 130, "H": 2},
        "large": {"R": 4096, "C": 4096, "H": 32},
    },
    "baseline_notes": "Two launches over a (head, 4096-element chunk) grid: per-chunk partial sums of g^2, then the "
                      "update kernel folds its head's partials into v_h and updates its chunk (1024-wide blocks, "
                      "4 warps); bias corrections on the host.",
    "deterministic": True,
}

HPARAMS = {"step": 120, "lr": 3e-4, "beta1": 0.9, "beta2": 0.95, "eps": 1e-8, "weight_decay": 0.1}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """param, grad, exp_avg [R, C] (the q_proj weight, rows grouped by head), v_mean [H] (one second moment per
    head), H and the step's hyper-parameters."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    R, C, H = s["R"], s["C"], s["H"]
    param = torch.randn(R, C, generator=g) * 0.02
    head_scale = torch.exp(torch.randn(H, 1, generator=g) * 0.5) * 1e-3
    grad = (torch.randn(H, R * C // H, generator=g) * head_scale).reshape(R, C)
    exp_avg = (torch.randn(H, R * C // H, generator=g) * head_scale * 0.3).reshape(R, C)
    v_mean = (head_scale.flatten() ** 2) * (0.5 + torch.rand(H, generator=g))
    hp = HPARAMS
    return (param.to(dt).to(device), grad.to(dt).to(device), exp_avg.to(dt).to(device), v_mean.to(dt).to(device),
            H, hp["step"], hp["lr"], hp["beta1"], hp["beta2"], hp["eps"], hp["weight_decay"])


def reference(param, grad, exp_avg, v_mean, n_heads, step, lr, beta1, beta2, eps, weight_decay):
    p = param.double().reshape(n_heads, -1)
    gr = grad.double().reshape(n_heads, -1)
    m = exp_avg.double().reshape(n_heads, -1)
    v = v_mean.double() * beta2 + (1.0 - beta2) * (gr * gr).mean(dim=1)
    m = m * beta1 + (1.0 - beta1) * gr
    bc1 = 1.0 - beta1 ** step
    bc2_sqrt = math.sqrt(1.0 - beta2 ** step)
    denom = (v.sqrt() / bc2_sqrt + eps)[:, None]
    p = p * (1.0 - lr * weight_decay) - (lr / bc1) * m / denom
    shape, dt = param.shape, param.dtype
    return p.reshape(shape).to(dt), m.reshape(shape).to(dt), v.to(dt)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["R"] * s["C"]
    return {"bytes": 4 * n * 5 + 8 * s["H"], "flops": 12 * n}
